// Landlock as the solver gets it: a child confined by the solver's policy reads the system and writes its scratch
// directory, and nothing else — not a file beside its scratch, not $HOME, not another process's /proc entry, not
// TCP; and a process that restricts itself restricts the threads it already had. Skipped, saying why, only on a
// kernel without Landlock.
#include "judge/core/sandbox/landlock.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "judge/core/sandbox/process.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

using judge::testing::TempDir;
using judge::testing::write_file;

#define REQUIRE_LANDLOCK()                                                       \
  do {                                                                           \
    LandlockSupport s = landlock_support();                                      \
    if (s.abi == 0) GTEST_SKIP() << "this kernel has no Landlock: " << s.why;    \
  } while (0)

SandboxPolicy policy_with_scratch(const std::filesystem::path& scratch) {
  SolverPaths paths;
  paths.scratch = scratch;
  return solver_policy(paths);
}

// What /bin/sh could and could not do in a child confined by `ruleset`: each line of `script`'s output.
std::string run_confined(const LandlockRuleset& ruleset, const std::string& script,
                         const std::map<std::string, std::string>& env = {}) {
  SpawnOptions o;
  o.argv = {"/bin/sh", "-c", script};
  o.env = env;
  o.setup.landlock_ruleset_fd = ruleset.fd();
  o.setup.landlock_own_proc = ruleset.allows_own_proc();
  Captured c = run_captured(o, std::chrono::seconds(30));
  EXPECT_TRUE(c.status.ok()) << c.status.describe() << "\n" << c.output;
  return c.output;
}

TEST(Landlock, SupportNamesTheAbi) {
  LandlockSupport s = landlock_support();
  if (s.abi == 0) GTEST_SKIP() << "this kernel has no Landlock: " << s.why;
  EXPECT_EQ(s.why, "ABI " + std::to_string(s.abi));
}

TEST(Landlock, SolverPolicyReadsTheSystemAndWritesOnlyItsScratch) {
  REQUIRE_LANDLOCK();
  TempDir dir;
  std::filesystem::create_directories(dir / "scratch");
  write_file(dir / "secret", "the seed is 42\n");
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  std::string probe = std::string(home) + "/judge-landlock-test-" + std::to_string(::getpid());
  LandlockRuleset ruleset(policy_with_scratch(dir / "scratch"));
  std::string out = run_confined(ruleset,
                                 "test -n \"$(head -c 1 /usr/include/stdio.h 2>/dev/null)\" && echo read-usr; "
                                 "cat \"$SECRET\" 2>/dev/null || echo no-secret; "
                                 "echo x > \"$SCRATCH/f\" && echo wrote-scratch; "
                                 "(echo x > \"$PROBE\") 2>/dev/null || echo no-home; "
                                 "(echo x > \"$OUTSIDE/f\") 2>/dev/null || echo no-beside; "
                                 "read line < /proc/$$/status && echo own-proc; "
                                 "cat /proc/1/cmdline >/dev/null 2>&1 || echo no-other-proc; "
                                 "grep -q MemTotal /proc/meminfo && echo proc-meminfo",
                                 {{"SECRET", (dir / "secret").string()},
                                  {"SCRATCH", (dir / "scratch").string()},
                                  {"OUTSIDE", dir.path().string()},
                                  {"PROBE", probe}});
  std::error_code ec;
  bool home_written = std::filesystem::exists(probe, ec);
  std::filesystem::remove(probe, ec);
  for (const char* expected : {"read-usr", "no-secret", "wrote-scratch", "no-home", "no-beside", "own-proc",
                               "no-other-proc", "proc-meminfo"})
    EXPECT_NE(out.find(expected), std::string::npos) << "missing '" << expected << "' in:\n" << out;
  EXPECT_EQ(out.find("the seed is 42"), std::string::npos) << out;
  EXPECT_FALSE(home_written) << probe;
  EXPECT_EQ(testing::read_file(dir / "scratch" / "f"), "x\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "f"));
}

TEST(Landlock, MissingPathsAreSkippedNotFatal) {
  REQUIRE_LANDLOCK();
  TempDir dir;
  SandboxPolicy p{"test", {{dir / "does-not-exist", PathAccess::read}, {dir.path(), PathAccess::write}}};
  LandlockRuleset ruleset(p);
  ASSERT_EQ(ruleset.skipped().size(), 1u);
  EXPECT_EQ(ruleset.skipped()[0], (dir / "does-not-exist").string());
}

TEST(Landlock, TcpConnectIsRefusedFromAbi4) {
  REQUIRE_LANDLOCK();
  TempDir dir;
  LandlockRuleset ruleset(policy_with_scratch(dir.path()));
  if (ruleset.abi() < 4) GTEST_SKIP() << "Landlock ABI " << ruleset.abi() << " has no network rules (ABI 4)";
  int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(server, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(server, 1), 0);
  socklen_t len = sizeof addr;
  ::getsockname(server, reinterpret_cast<sockaddr*>(&addr), &len);

  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (landlock_restrict_child(ruleset.fd(), false) != 0) ::_exit(2);
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    int r = ::connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::_exit(r != 0 && errno == EACCES ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(server);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "connect to 127.0.0.1 was not refused with EACCES";
}

// restrict_self() in a process that already has threads: a thread started before it is confined too (ABI 8 does it
// at once; before, each thread is asked by a signal), and so is the caller.
TEST(Landlock, RestrictSelfConfinesThreadsThatAlreadyRan) {
  REQUIRE_LANDLOCK();
  TempDir dir;
  write_file(dir / "secret", "secret\n");
  LandlockRuleset ruleset(policy_with_scratch(dir / "scratch"));
  std::string secret = (dir / "secret").string();

  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::mutex m;
    std::condition_variable cv;
    bool go = false, readable = true;
    std::thread earlier([&] {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return go; });
      readable = std::ifstream(secret).good();
    });
    LandlockRuleset::Coverage c = ruleset.restrict_self();
    {
      std::lock_guard<std::mutex> lock(m);
      go = true;
    }
    cv.notify_one();
    earlier.join();
    bool caller_readable = std::ifstream(secret).good();
    ::_exit(c.complete() && c.threads == 2 ? (readable || caller_readable ? 1 : 0) : 3);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died: status " << status;
  EXPECT_NE(WEXITSTATUS(status), 3) << "restrict_self did not report both threads confined";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a thread could still read a file outside the policy";
}

}  // namespace
}  // namespace judge
