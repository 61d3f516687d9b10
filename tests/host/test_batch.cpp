// `judge batch` without a GPU: which files it judges, under which names, on which GPUs.
#include "judge/core/batch/batch.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace judge {
namespace {

using judge::testing::TempDir;
namespace fs = std::filesystem;

void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "// x\n";
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Batch, DirectoriesAreSearchedAndNamedByFileOrFolder) {
  TempDir tmp;
  touch(tmp / "class" / "bob" / "solve.cu");
  touch(tmp / "class" / "alice" / "solve.cu");
  touch(tmp / "class" / "alice" / "notes.txt");
  touch(tmp / "single.cu");
  auto by_folder = collect_submissions({(tmp / "class").string(), (tmp / "single.cu").string()}, NameFrom::folder);
  ASSERT_EQ(by_folder.size(), 3u);
  EXPECT_EQ(by_folder[0].name, "alice");  // path order, .txt ignored
  EXPECT_EQ(by_folder[1].name, "bob");
  EXPECT_EQ(by_folder[2].source, tmp / "single.cu");
  auto by_file = collect_submissions({(tmp / "class").string()}, NameFrom::file);
  ASSERT_EQ(by_file.size(), 2u);
  EXPECT_EQ(by_file[0].name, "solve");  // the same name twice is told apart
  EXPECT_EQ(by_file[1].name, "solve-2");
}

TEST(Batch, BadPathsAreNamed) {
  TempDir tmp;
  touch(tmp / "empty" / "readme.txt");
  touch(tmp / "a.cpp");
  EXPECT_NE(message_of([&] { collect_submissions({(tmp / "nope").string()}, NameFrom::file); }).find("nope does not exist"),
            std::string::npos);
  EXPECT_NE(message_of([&] { collect_submissions({(tmp / "empty").string()}, NameFrom::file); }).find("no .cu file"),
            std::string::npos);
  EXPECT_NE(message_of([&] { collect_submissions({(tmp / "a.cpp").string()}, NameFrom::file); }).find("not a .cu"),
            std::string::npos);
}

TEST(Batch, GpusAreAllOrAListOfOrdinals) {
  EXPECT_EQ(parse_gpus("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_gpus("2,0", 3), (std::vector<int>{2, 0}));
  EXPECT_NE(message_of([] { parse_gpus("0,3", 2); }).find("there is no GPU 3 (2 present: 0 to 1)"), std::string::npos);
  EXPECT_NE(message_of([] { parse_gpus("1,1", 2); }).find("GPU 1 is named twice"), std::string::npos);
  EXPECT_NE(message_of([] { parse_gpus("x", 2); }).find("'x' is not a GPU ordinal"), std::string::npos);
  EXPECT_NE(message_of([] { parse_gpus("1,", 2); }).find("not a GPU ordinal"), std::string::npos);
  EXPECT_NE(message_of([] { parse_gpus("all", 0); }).find("no CUDA device"), std::string::npos);
}

BatchResult result_with(std::vector<Protection> protections) {
  BatchResult r;
  r.report.protections = std::move(protections);
  return r;
}

// The summary says which protections were off and in how many of the runs that recorded theirs.
TEST(Batch, ProtectionsOffAreCountedOverTheRunsThatRecordedThem) {
  const Protection landlock{"landlock", true, "ABI 6"};
  const Protection uid_off{"uid drop", false, "judge not running as root: solver keeps uid 1000"};
  const Protection bwrap_off{"pid+mount namespaces (bubblewrap)", false, "not installed"};
  std::vector<BatchResult> results = {
      result_with({landlock, uid_off}),
      result_with({}),  // failed before its worker: nothing recorded, not counted
      result_with({{"compile sandbox", true, "bubblewrap"}}),  // did not compile: no solver, so no uid drop
      result_with({landlock, uid_off, bwrap_off}),
      // Reported twice (worker and solver), off once: off, and counted once for this run.
      result_with({{"uid drop", true, "as 65534"}, {"uid drop", false, "relaxed: a tool"}, landlock}),
  };
  const BatchProtections p = batch_protections(results);
  EXPECT_EQ(p.recorded, 4u);
  ASSERT_EQ(p.off.size(), 2u);
  EXPECT_EQ(p.off[0].name, "uid drop");
  EXPECT_EQ(p.off[0].runs, 3u);
  EXPECT_EQ(p.off[0].of, 3u) << "of the runs that recorded it";
  EXPECT_EQ(p.off[0].why, uid_off.why) << "the first run's reason";
  EXPECT_EQ(p.off[1].name, bwrap_off.name);
  EXPECT_EQ(p.off[1].runs, 1u);
  EXPECT_EQ(p.off[1].of, 1u);

  const BatchProtections all_on = batch_protections({result_with({landlock}), result_with({landlock})});
  EXPECT_EQ(all_on.recorded, 2u);
  EXPECT_TRUE(all_on.off.empty());
  EXPECT_EQ(batch_protections({result_with({})}).recorded, 0u);
}

}  // namespace
}  // namespace judge
