// A process and its descendants from /proc (judge/core/base/process_tree.hpp): the solver under bubblewrap is a
// grandchild of the process the worker starts, and the leak watch must count all of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "judge/core/base/process_tree.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::parent_from_stat;
using judge::process_tree;

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST(ProcessTree, ParentIsCountedFromTheLastParenthesis) {
  EXPECT_EQ(parent_from_stat("1234 (judge-solver) S 1200 1234 1234 0 -1 4194560"), 1200);
  EXPECT_EQ(parent_from_stat("77 (a) b) (c) R 5 77 77"), 5) << "a command name with ') ' in it";
  EXPECT_EQ(parent_from_stat("1 (init) S 0 1 1"), 0);
  EXPECT_EQ(parent_from_stat(""), -1);
  EXPECT_EQ(parent_from_stat("12 (no close paren S 3"), -1);
  EXPECT_EQ(parent_from_stat("12 (x) S"), -1);
}

TEST(ProcessTree, ChildAndGrandchildOfARealProcess) {
  // A child that starts a grandchild and both wait: the shape of bubblewrap running the solver.
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      for (;;) ::pause();
    }
    const int g = static_cast<int>(grandchild);
    if (::write(ready[1], &g, sizeof g) != sizeof g) ::_exit(2);
    ::waitpid(grandchild, nullptr, 0);
    ::_exit(0);
  }
  ::close(ready[1]);
  int grandchild = 0;
  const bool got = ::read(ready[0], &grandchild, sizeof grandchild) == sizeof grandchild;
  ::close(ready[0]);
  std::vector<int> tree = process_tree(static_cast<int>(child));
  std::vector<int> mine = process_tree(static_cast<int>(::getpid()));
  if (got) ::kill(grandchild, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ASSERT_TRUE(got);
  ASSERT_EQ(tree.size(), 2u);
  EXPECT_EQ(tree[0], static_cast<int>(child)) << "the root comes first";
  EXPECT_EQ(tree[1], grandchild);
  EXPECT_TRUE(contains(mine, static_cast<int>(child)));
  EXPECT_TRUE(contains(mine, grandchild));
  EXPECT_FALSE(contains(tree, static_cast<int>(::getpid()))) << "the parent is not below its child";
}

TEST(ProcessTree, AProcessThatDoesNotExistHasNoTree) {
  judge::testing::TempDir dir;
  EXPECT_TRUE(process_tree(12345, dir.path()).empty());
  EXPECT_TRUE(process_tree(-1).empty());
}

TEST(ProcessTree, ReadsTheProcDirectoryItIsGiven) {
  // 10 -> 11 -> 12, 10 -> 13; 20 unrelated; a non-numeric entry and a missing or unreadable stat are skipped; 30 <-> 31 is a
  // cycle no real /proc has, and must not loop.
  judge::testing::TempDir dir;
  auto proc = [&](int pid, const std::string& stat) {
    fs::create_directories(dir.path() / std::to_string(pid));
    std::ofstream(dir.path() / std::to_string(pid) / "stat") << stat;
  };
  proc(10, "10 (bwrap) S 1 10 10");
  proc(11, "11 (bwrap) S 10 10 10");
  proc(12, "12 (judge-solver) S 11 10 10");
  proc(13, "13 (x) S 10 10 10");
  proc(20, "20 (y) S 1 20 20");
  proc(30, "30 (c) S 31 30 30");
  proc(31, "31 (d) S 30 30 30");
  fs::create_directories(dir.path() / "self");
  fs::create_directories(dir.path() / "40");  // no stat: gone since the listing
  // A stat that opens but cannot be read: a process that exits between open() and read() (ESRCH), seen in the GPU
  // suite with judges starting and ending beside each other. A directory fails the same way (EISDIR).
  fs::create_directories(dir.path() / "41" / "stat");
  std::vector<int> tree;
  ASSERT_NO_THROW(tree = process_tree(10, dir.path()));
  ASSERT_EQ(tree.size(), 4u);
  EXPECT_EQ(tree[0], 10);
  EXPECT_TRUE(contains(tree, 11) && contains(tree, 12) && contains(tree, 13));
  EXPECT_LT(std::find(tree.begin(), tree.end(), 11) - tree.begin(), std::find(tree.begin(), tree.end(), 12) - tree.begin())
      << "a parent before its child";
  EXPECT_EQ(process_tree(30, dir.path()).size(), 2u);
  EXPECT_EQ(process_tree(12, dir.path()), std::vector<int>{12});
}

}  // namespace
