// The policy as data: the solver reaches the system, the toolkit, /proc, /sys, its GPU's device nodes and its own
// scratch directory, and nothing of the judge's (no $HOME, /tmp, /work, cache or leaderboard); nvcc reaches the
// toolkit, the compilers and headers and its build directory, and no more of /etc than the loader's cache.
#include "judge/core/sandbox/policy.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "judge/core/base/paths.hpp"
#include "judge/core/build/build.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;

bool has(const SandboxPolicy& p, const fs::path& path, PathAccess access) {
  return std::any_of(p.rules.begin(), p.rules.end(),
                     [&](const PathRule& r) { return r.path == path && r.access == access; });
}

// A rule that would let the sandbox reach `path` (the path itself or a directory above it).
bool reaches(const SandboxPolicy& p, const fs::path& path) {
  for (const auto& r : p.rules) {
    auto [a, b] = std::mismatch(r.path.begin(), r.path.end(), path.begin(), path.end());
    if (a == r.path.end()) return true;
  }
  return false;
}

TEST(SandboxPolicy, SolverReachesTheSystemItsDevicesAndItsScratchOnly) {
  testing::TempDir dir;
  SolverPaths paths;
  paths.scratch = dir / "scratch";
  paths.readable = {"/opt/judge/bin/judge-solver"};
  SandboxPolicy p = solver_policy(paths);
  EXPECT_EQ(p.name, "solver");
  for (const char* system : {"/usr", "/etc", "/sys"}) EXPECT_TRUE(has(p, system, PathAccess::read)) << system;
  EXPECT_TRUE(has(p, "/proc", PathAccess::proc));
  EXPECT_TRUE(has(p, "/dev/null", PathAccess::device));
  EXPECT_TRUE(has(p, dir / "scratch", PathAccess::write));
  EXPECT_TRUE(has(p, "/opt/judge/bin/judge-solver", PathAccess::read));
  // The only writable rule is the scratch directory.
  for (const auto& r : p.rules)
    if (r.access == PathAccess::write) EXPECT_EQ(r.path, dir / "scratch");
  std::vector<fs::path> private_places = {dir / "beside-scratch", "/tmp/x", "/work/main", "/root/.cache",
                                          cache_dir() / "builds", default_database_path()};
  if (const char* home = std::getenv("HOME")) private_places.push_back(fs::path(home) / "x");
  for (const auto& place : private_places) EXPECT_FALSE(reaches(p, place)) << place;
}

TEST(SandboxPolicy, SolverGetsOnlyItsOwnGpusNode) {
  SandboxPolicy p = solver_policy({"/tmp/s", {}, 1, ""});
  for (const auto& r : p.rules) {
    std::string s = r.path.string();
    if (s.rfind("/dev/nvidia", 0) == 0 && s.size() > 11 && std::isdigit(static_cast<unsigned char>(s[11])))
      EXPECT_EQ(s, "/dev/nvidia1");
  }
  auto nodes = nvidia_device_nodes(1);
  for (const auto& n : nodes) EXPECT_TRUE(n == "/dev/nvidia1" || n.string().find("nvidia-uvm") != std::string::npos ||
                                          n == "/dev/nvidiactl") << n;
}

// The compile policy is made for an nvcc: these skip where there is none.
class CompilePolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      nvcc = find_nvcc();
    } catch (const Error& e) {
      GTEST_SKIP() << "nvcc is not installed here: " << e.what();
    }
  }
  std::string nvcc;
};

TEST_F(CompilePolicy, ReachesTheToolkitHeadersAndItsBuildDirectoryOnly) {
  testing::TempDir dir;
  SandboxPolicy p = compile_policy(nvcc, dir / "build");
  EXPECT_EQ(p.name, "compile");
  EXPECT_TRUE(has(p, dir / "build", PathAccess::write));
  EXPECT_TRUE(has(p, "/usr/include", PathAccess::read));
  EXPECT_TRUE(has(p, "/etc/ld.so.cache", PathAccess::read));
  EXPECT_TRUE(reaches(p, fs::canonical(nvcc)));
  for (const fs::path& place : {fs::path("/etc/passwd"), fs::path("/etc"), fs::path("/proc/self/environ"),
                                fs::path("/root/anything"), dir / "other-build", fs::path("/usr/local/include/x.h"),
                                cache_dir() / "builds"})
    EXPECT_FALSE(reaches(p, place)) << place;
}

TEST_F(CompilePolicy, ToolkitDirsFollowSymlinks) {
  auto dirs = toolkit_dirs(nvcc);
  fs::path root = fs::canonical(nvcc).parent_path().parent_path();
  if (!is_toolkit_root(root)) GTEST_SKIP() << nvcc << " is a wrapper outside its toolkit (see the test below)";
  EXPECT_NE(std::find(dirs.begin(), dirs.end(), root), dirs.end()) << root;
}

// A wrapper script such as /usr/local/bin/nvcc: its bin/.. is no toolkit, and opening it would open everything
// installed beside it (seen in CI, where PATH led to /usr/local/bin/nvcc and the policy opened /usr/local/include).
TEST_F(CompilePolicy, AWrapperScriptOpensItselfNotItsParent) {
  testing::TempDir dir;
  fs::create_directories(dir / "local" / "bin");
  fs::create_directories(dir / "local" / "include");
  const fs::path wrapper = dir / "local" / "bin" / "nvcc";
  testing::write_file(wrapper, "#!/bin/sh\nexec " + nvcc + " \"$@\"\n");
  fs::permissions(wrapper, fs::perms::owner_all);
  EXPECT_FALSE(is_toolkit_root(dir / "local"));
  for (const auto& d : toolkit_dirs(wrapper.string())) EXPECT_NE(d, dir / "local");
  SandboxPolicy p = compile_policy(wrapper.string(), dir / "build");
  EXPECT_TRUE(has(p, wrapper, PathAccess::read));
  EXPECT_FALSE(reaches(p, dir / "local" / "include" / "x.h"));
  // The toolkit the wrapper runs is still there: the one the judge was built with.
  EXPECT_TRUE(std::any_of(p.rules.begin(), p.rules.end(), [](const PathRule& r) { return is_toolkit_root(r.path); }));
}

TEST(SandboxPolicy, SolverIsNobodyOnlyWhenTheJudgeIsRoot) {
  auto who = solver_credentials();
  if (::geteuid() == 0) {
    ASSERT_TRUE(who.has_value());
    EXPECT_EQ(who->uid, 65534u);
    EXPECT_EQ(who->gid, 65534u);
  } else {
    EXPECT_FALSE(who.has_value());
  }
}

}  // namespace
}  // namespace judge
