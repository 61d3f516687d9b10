// Bubblewrap as the solver gets it: the mounts come in an order that works (a directory before what is mounted
// inside it), and a real sandbox, where bwrap works here, sees only the policy's paths, runs as nobody when the judge
// is root, has no network but loopback, tells the caller its pid, and leaves no process behind, a setsid daemon
// included.
#include "judge/core/sandbox/bwrap.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::ptrdiff_t index_of(const std::vector<std::string>& v, const std::vector<std::string>& seq) {
  auto it = std::search(v.begin(), v.end(), seq.begin(), seq.end());
  return it == v.end() ? -1 : it - v.begin();
}

TEST(Bwrap, MountsComeAfterTheDirectoriesTheyAreIn) {
  testing::TempDir dir;  // under /tmp, which the sandbox gets empty
  const std::string scratch_dir = dir.path().string();
  SandboxPolicy p{"test",
                  {{"/usr", PathAccess::read},
                   {"/usr/local/cuda", PathAccess::read},  // inside /usr: not mounted again
                   {dir.path(), PathAccess::write},
                   {"/proc", PathAccess::proc},
                   {"/dev/null", PathAccess::device}}};
  std::vector<std::string> m = bwrap_mounts(p);
  auto tmpfs = index_of(m, {"--tmpfs", "/tmp"});
  auto scratch = index_of(m, {"--bind", scratch_dir, scratch_dir});
  ASSERT_GE(tmpfs, 0);
  ASSERT_GE(scratch, 0);
  EXPECT_LT(tmpfs, scratch) << "the scratch directory would vanish under the empty /tmp";
  EXPECT_GE(index_of(m, {"--ro-bind", "/usr", "/usr"}), 0);
  EXPECT_GE(index_of(m, {"--proc", "/proc"}), 0);
  EXPECT_GE(index_of(m, {"--dev", "/dev"}), 0);
  EXPECT_EQ(index_of(m, {"--ro-bind", "/usr/local/cuda", "/usr/local/cuda"}), -1);
  EXPECT_EQ(std::count(m.begin(), m.end(), "/dev/null"), 0) << "--dev provides it";
}

// Debian's and NVIDIA's packages make /usr/local/cuda a link to /etc/alternatives/cuda, itself a link to
// /usr/local/cuda-13.0: inside the sandbox the first link must lead to the toolkit without the second (seen on the
// GPU machines: bwrap could not exec /usr/local/cuda/bin/nvcc).
TEST(Bwrap, ASymlinkChainPointsStraightAtItsTarget) {
  testing::TempDir dir;
  fs::create_directories(dir / "toolkit-13.0" / "bin");
  fs::create_directories(dir / "alternatives");
  fs::create_directory_symlink(dir / "toolkit-13.0", dir / "alternatives" / "toolkit");
  fs::create_directory_symlink(dir / "alternatives" / "toolkit", dir / "toolkit");
  const fs::path real = fs::canonical(dir / "toolkit-13.0");
  SandboxPolicy p{"test", {{dir / "toolkit", PathAccess::read}}};
  std::vector<std::string> m = bwrap_mounts(p);
  EXPECT_GE(index_of(m, {"--symlink", real.string(), (dir / "toolkit").string()}), 0);
  EXPECT_GE(index_of(m, {"--ro-bind", real.string(), real.string()}), 0);
  EXPECT_EQ(std::count(m.begin(), m.end(), (dir / "alternatives" / "toolkit").string()), 0)
      << "the middle link is not in the sandbox, so nothing may point through it";
}

TEST(Bwrap, ArgumentsUnshareEverythingAndClearTheEnvironment) {
  BwrapSandbox s;
  s.bwrap = "/usr/bin/bwrap";
  s.scratch = "/tmp/s";
  s.policy = {"test", {{"/usr", PathAccess::read}}};
  s.info_fd = 5;
  s.env = {{"JUDGE_SOLVER_SCRATCH", "/tmp/s"}};
  auto a = bwrap_arguments(s);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a.front(), "/usr/bin/bwrap");
  EXPECT_EQ(a.back(), "--");
  for (const char* flag : {"--die-with-parent", "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
                           "--unshare-uts", "--new-session", "--as-pid-1", "--clearenv"})
    EXPECT_NE(std::find(a.begin(), a.end(), flag), a.end()) << flag;
  EXPECT_GE(index_of(a, {"--info-fd", "5"}), 0);
  EXPECT_GE(index_of(a, {"--setenv", "HOME", "/tmp/s"}), 0);
  EXPECT_GE(index_of(a, {"--setenv", "JUDGE_SOLVER_SCRATCH", "/tmp/s"}), 0);
  EXPECT_GE(index_of(a, {"--chdir", "/tmp/s"}), 0);
  EXPECT_LT(index_of(a, {"--clearenv"}), index_of(a, {"--setenv", "HOME", "/tmp/s"}));
}

TEST(Bwrap, SandboxSeesOnlyThePolicyAndLeavesNothingBehind) {
  const BwrapTrial& trial = bwrap_trial();
  if (!trial.works) GTEST_SKIP() << "bubblewrap does not work here: " << trial.why;
  testing::TempDir dir;
  ::chmod(dir.path().c_str(), 0711);  // the sandbox's user must reach its scratch directory
  fs::create_directories(dir / "scratch");
  testing::write_file(dir / "secret", "the seed is 42\n");
  if (auto who = solver_credentials()) give_to(dir / "scratch", *who);

  SolverPaths paths;
  paths.scratch = dir / "scratch";
  BwrapSandbox s;
  s.bwrap = find_bwrap();
  s.policy = solver_policy(paths);
  s.scratch = dir / "scratch";
  s.info_fd = 5;
  int info[2];
  ASSERT_EQ(::pipe2(info, O_CLOEXEC), 0);

  SpawnOptions o;
  // A daemon first: it must not outlive the sandbox.
  o.argv = {"/bin/sh", "-c",
            "(setsid sleep 3117 &) ; id -u; cat \"$SECRET\" 2>/dev/null || echo no-secret; "
            "test -e /work || echo no-work; test -e /root/.cache || echo no-root; "
            "echo x > f && echo wrote-scratch; hostname; "
            "echo \"net=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ,)\"; "
            "echo \"home=$HOME\""};
  o.env = {{"SECRET", (dir / "secret").string()}};  // bwrap's own environment: the command must not see it
  o.setup.keep_fds = {{info[1], 5}};
  wrap_in_bwrap(o, s);
  Captured c = run_captured(o, 30s);
  ::close(info[1]);
  std::string info_text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(info[0], buffer, sizeof buffer)) > 0;) info_text.append(buffer, static_cast<size_t>(n));
  ::close(info[0]);

  ASSERT_TRUE(c.status.ok()) << c.status.describe() << "\n" << c.output;
  std::istringstream lines(c.output);
  std::string uid;
  std::getline(lines, uid);
  EXPECT_EQ(uid, ::geteuid() == 0 ? "65534" : std::to_string(::geteuid())) << c.output;
  for (const char* expected : {"no-secret", "no-work", "no-root", "wrote-scratch", "judge-sandbox"})
    EXPECT_NE(c.output.find(expected), std::string::npos) << expected << " in\n" << c.output;
  EXPECT_NE(c.output.find("home=" + (dir / "scratch").string()), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("net=lo,\n"), std::string::npos) << "a network interface besides loopback:\n" << c.output;
  EXPECT_EQ(c.output.find("the seed"), std::string::npos) << c.output;
  EXPECT_TRUE(fs::exists(dir / "scratch" / "f"));
  EXPECT_GT(bwrap_command_pid(info_text, true), 0) << info_text;

  // Every process of the sandbox ended with it.
  bool daemon_left = false;
  for (int i = 0; i < 20; ++i) {
    daemon_left = false;
    for (const auto& e : fs::directory_iterator("/proc")) {
      std::ifstream cmd(e.path() / "cmdline");
      std::string s;
      std::getline(cmd, s, '\0');
      std::string arg;
      std::getline(cmd, arg, '\0');
      if (s.find("sleep") != std::string::npos && arg == "3117") daemon_left = true;
    }
    if (!daemon_left) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_FALSE(daemon_left) << "a setsid daemon outlived the sandbox";
}

TEST(Bwrap, CommandOutsideThePolicyIsRefused) {
  BwrapSandbox s;
  s.bwrap = "/bin/true";  // any executable: the check comes before bwrap runs
  s.policy = {"test", {{"/usr", PathAccess::read}}};
  SpawnOptions o;
  o.argv = {"/opt/elsewhere/judge-solver"};
  try {
    wrap_in_bwrap(o, s);
    FAIL() << "a command the sandbox cannot see was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/opt/elsewhere/judge-solver"), std::string::npos) << e.what();
  }
}

TEST(Bwrap, InfoWithoutAPidGivesZero) {
  EXPECT_EQ(bwrap_command_pid("not json", true), 0);
  EXPECT_EQ(bwrap_command_pid("{\"child-pid\": 42}", true), 42);
  EXPECT_FALSE(nvidia_minor("not a bus id").has_value());
}

}  // namespace
}  // namespace judge
