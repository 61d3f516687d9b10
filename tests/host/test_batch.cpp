// `judge batch` without a GPU: which files it judges, under which names, on which GPUs.
#include "judge/core/batch.hpp"

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

}  // namespace
}  // namespace judge
