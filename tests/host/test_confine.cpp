// Confinement as it is applied: the solver confining itself ends up unable to read beside its scratch directory or
// to fork, and says which protections took effect; under a tool it applies nothing and says so. nvcc confined by
// each sandbox compiles a normal file and fails on `#include "/etc/passwd"` without quoting it.
#include "judge/core/sandbox/confine.hpp"

#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "judge/core/build/build.hpp"
#include "judge/core/sandbox/bwrap.hpp"
#include "judge/core/sandbox/seccomp.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST(Confine, SolverConfinesItselfAndReportsWhatTookEffect) {
  testing::TempDir dir;
  fs::create_directories(dir / "scratch");
  testing::write_file(dir / "secret", "secret\n");
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(fds[0]);
    nlohmann::json out;
    try {
      SolverConfinement c;
      c.paths.scratch = dir / "scratch";
      out["protections"] = confine_self(c);
      out["secret_readable"] = std::ifstream(dir / "secret").good();
      out["scratch_writable"] = static_cast<bool>(std::ofstream(dir / "scratch" / "f") << "x");
      pid_t child = ::fork();
      if (child == 0) ::_exit(0);
      out["fork"] = child > 0;
    } catch (const std::exception& e) {
      out["error"] = e.what();
    }
    std::string text = out.dump();
    ssize_t ignored = ::write(fds[1], text.data(), text.size());
    (void)ignored;
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  nlohmann::json out = nlohmann::json::parse(text, nullptr, false);
  ASSERT_TRUE(out.is_object()) << text;
  ASSERT_FALSE(out.contains("error")) << out["error"];
  auto protections = out["protections"].get<std::vector<Protection>>();
  Protection landlock = find_protection(protections, protection::landlock);
  Protection seccomp = find_protection(protections, protection::seccomp);
  EXPECT_EQ(landlock.on, landlock_support().abi > 0) << landlock.why;
  EXPECT_EQ(seccomp.on, seccomp_support().available) << seccomp.why;
  EXPECT_TRUE(find_protection(protections, protection::no_network).on);
  if (landlock.on) {
    EXPECT_FALSE(out["secret_readable"].get<bool>()) << "read a file beside the scratch directory";
    EXPECT_NE(landlock.why.find((dir / "scratch").string()), std::string::npos) << landlock.why;
  }
  EXPECT_TRUE(out["scratch_writable"].get<bool>());
  if (seccomp.on) EXPECT_FALSE(out["fork"].get<bool>()) << "forked under the seccomp filter";
}

TEST(Confine, UnderAToolNothingIsAppliedAndItSaysSo) {
  SolverConfinement c;
  c.tool = true;
  for (const auto& p : confine_self(c)) {
    EXPECT_FALSE(p.on) << p.name;
    EXPECT_NE(p.why.find("relaxed"), std::string::npos) << p.why;
  }
}

TEST(Confine, SolverConfinementFromTheEnvironment) {
  ::setenv("JUDGE_SOLVER_SCRATCH", "/tmp/scratch-x", 1);
  ::setenv("JUDGE_SOLVER_GPU_MINOR", "3", 1);
  ::unsetenv("JUDGE_SOLVER_TOOL");
  SolverConfinement c = SolverConfinement::from_environment();
  ::unsetenv("JUDGE_SOLVER_SCRATCH");
  ::unsetenv("JUDGE_SOLVER_GPU_MINOR");
  EXPECT_EQ(c.paths.scratch, "/tmp/scratch-x");
  ASSERT_TRUE(c.paths.gpu_minor.has_value());
  EXPECT_EQ(*c.paths.gpu_minor, 3);
  EXPECT_FALSE(c.tool);
  ASSERT_EQ(c.paths.readable.size(), 1u);
  EXPECT_EQ(c.paths.readable[0], fs::read_symlink("/proc/self/exe"));
}

class ConfinedCompile : public ::testing::TestWithParam<CompileSandbox> {
 protected:
  void SetUp() override {
    try {
      nvcc_ = find_nvcc();
    } catch (const Error& e) {
      GTEST_SKIP() << "nvcc is not installed here: " << e.what();
    }
    if (GetParam() == CompileSandbox::landlock && landlock_support().abi == 0)
      GTEST_SKIP() << "no Landlock here: " << landlock_support().why;
    if (GetParam() == CompileSandbox::bubblewrap && !bwrap_trial().works)
      GTEST_SKIP() << "bubblewrap does not work here: " << bwrap_trial().why;
  }

  Captured compile(const std::string& source, std::string& sandbox) {
    testing::write_file(dir_ / "a.cu", source);
    SpawnOptions o;
    o.argv = {nvcc_, "-arch=sm_75", "-c", (dir_ / "a.cu").string(), "-o", (dir_ / "a.o").string()};
    o.output_limit = 1 << 20;
    CompileConfinement c = confine_compile(o, nvcc_, dir_.path(), GetParam());
    sandbox = c.sandbox;
    return run_captured(o, 300s);
  }

  testing::TempDir dir_;
  std::string nvcc_;
};

TEST_P(ConfinedCompile, CompilesANormalFileButNotAnotherFile) {
  std::string sandbox;
  Captured good = compile("#include <cuda_fp16.h>\n#include <cstdio>\n__global__ void k(float* x) { x[0] = 1; }\n",
                          sandbox);
  EXPECT_TRUE(good.status.ok()) << good.output;
  EXPECT_EQ(sandbox, GetParam() == CompileSandbox::landlock ? "landlock" : "bubblewrap");
  Captured bad = compile("#include \"/etc/passwd\"\n", sandbox);
  EXPECT_FALSE(bad.status.ok()) << bad.output;
  EXPECT_EQ(bad.output.find("root:x:0:0"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("/etc/passwd"), std::string::npos) << bad.output;
}

INSTANTIATE_TEST_SUITE_P(Sandboxes, ConfinedCompile,
                         ::testing::Values(CompileSandbox::landlock, CompileSandbox::bubblewrap),
                         [](const auto& info) {
                           return info.param == CompileSandbox::landlock ? std::string("Landlock")
                                                                         : std::string("Bubblewrap");
                         });

TEST(Confine, CompileEnvironmentIsScrubbed) {
  SpawnOptions o;
  o.argv = {"/usr/local/cuda/bin/nvcc", "--version"};
  o.env = {{"NVCC_PREPEND_FLAGS", "-I/etc"}};
  CompileConfinement c = confine_compile(o, "/usr/local/cuda/bin/nvcc", "/tmp/private", CompileSandbox::none);
  EXPECT_EQ(c.sandbox, "none: the caller asked for none");
  EXPECT_TRUE(o.env_is_complete);
  EXPECT_EQ(o.env, (std::map<std::string, std::string>{{"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"},
                                                       {"HOME", "/tmp/private"},
                                                       {"TMPDIR", "/tmp/private"},
                                                       {"LANG", "C"}}));
  EXPECT_TRUE(o.setup.expendable) << "a template bomb must exhaust nvcc, not the judge";
}

}  // namespace
}  // namespace judge
