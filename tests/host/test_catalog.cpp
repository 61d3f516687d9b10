// The catalog: challenge folders are discovered, not listed; a broken spec is one entry with its error, not a
// broken list; a wrong id gets suggestions; an id is a name, never a path.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "judge/core/challenge/catalog.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using judge::testing::write_file;

std::string spec(const std::string& id) {
  return R"({
  "id": ")" + id + R"(", "title": "T", "difficulty": "easy", "summary": "summary of )" + id + R"(",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}}],
  "benchmarks": [{"name": "b1", "scalars": {"N": 1000}}]
})";
}

// root/{beta_scale, alpha_add, gamma_broken, notes (no spec.json)} and a stray file.
class Catalog : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() / "challenges";
    // Written out of order: the listing must sort.
    write_file(root_ / "beta_scale" / "spec.json", spec("beta_scale"));
    write_file(root_ / "alpha_add" / "spec.json", spec("alpha_add"));
    write_file(root_ / "gamma_broken" / "spec.json", "{ \"id\": \"gamma_broken\", ");
    write_file(root_ / "notes" / "README.md", "not a challenge\n");
    write_file(root_ / "stray.txt", "a file, not a folder\n");
  }

  TempDir dir_;
  fs::path root_;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const judge::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a judge::Error";
  return {};
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE((haystack).find(needle), std::string::npos) << "missing \"" << (needle) << "\" in: " << (haystack)

TEST_F(Catalog, ScanListsSpecFoldersSortedWithTheBrokenOneAsAnEntry) {
  auto entries = judge::scan_challenges(root_);
  ASSERT_EQ(entries.size(), 3u) << "notes/ (no spec.json) and stray.txt are not challenges";
  EXPECT_EQ(entries[0].dir.filename(), "alpha_add");
  EXPECT_EQ(entries[1].dir.filename(), "beta_scale");
  EXPECT_EQ(entries[2].dir.filename(), "gamma_broken");

  ASSERT_TRUE(entries[0].challenge);
  EXPECT_EQ(entries[0].challenge->id, "alpha_add");
  EXPECT_EQ(entries[0].challenge->summary, "summary of alpha_add");
  EXPECT_TRUE(entries[0].error.empty());
  ASSERT_TRUE(entries[1].challenge);
  EXPECT_EQ(entries[1].challenge->id, "beta_scale");

  EXPECT_FALSE(entries[2].challenge);
  EXPECT_CONTAINS(entries[2].error, (root_ / "gamma_broken" / "spec.json").string());
}

TEST_F(Catalog, AnIdThatDoesNotMatchItsFolderIsABrokenEntry) {
  write_file(root_ / "delta" / "spec.json", spec("not_delta"));
  auto entries = judge::scan_challenges(root_);
  auto it = std::find_if(entries.begin(), entries.end(), [](const auto& e) { return e.dir.filename() == "delta"; });
  ASSERT_NE(it, entries.end());
  EXPECT_FALSE(it->challenge);
  EXPECT_CONTAINS(it->error, "not_delta");
  EXPECT_CONTAINS(it->error, "folder");
}

TEST_F(Catalog, EmptyRootIsAnEmptyList) {
  TempDir empty;
  EXPECT_TRUE(judge::scan_challenges(empty.path()).empty());
}

TEST_F(Catalog, FindExactId) {
  judge::Challenge c = judge::find_challenge(root_, "beta_scale");
  EXPECT_EQ(c.id, "beta_scale");
  EXPECT_EQ(c.dir, root_ / "beta_scale");
  EXPECT_EQ(c.starter_path(), root_ / "beta_scale" / "starter.cu");
}

// LeetGPU's ids with capitals are lower-cased here, and a spec may list other names: both still find the challenge.
TEST_F(Catalog, FindByAliasOrIgnoringCase) {
  std::string text = spec("fast_fourier_transform");
  text.replace(text.find("\"title\""), 0, R"("aliases": ["Fast_Fourier_transform", "fft"], )");
  write_file(root_ / "fast_fourier_transform" / "spec.json", text);
  EXPECT_EQ(judge::find_challenge(root_, "Fast_Fourier_transform").id, "fast_fourier_transform");
  EXPECT_EQ(judge::find_challenge(root_, "fft").id, "fast_fourier_transform");
  EXPECT_EQ(judge::find_challenge(root_, "FFT").id, "fast_fourier_transform");
  EXPECT_EQ(judge::find_challenge(root_, "Beta_Scale").id, "beta_scale");
  EXPECT_CONTAINS(error_of([&] { judge::find_challenge(root_, "fftw"); }), "there is no challenge 'fftw'");
}

TEST_F(Catalog, FindBrokenSpecThrowsSpecErrorNamingTheFile) {
  try {
    judge::find_challenge(root_, "gamma_broken");
    FAIL() << "expected a SpecError";
  } catch (const judge::SpecError& e) {
    EXPECT_CONTAINS(std::string(e.what()), (root_ / "gamma_broken" / "spec.json").string());
  }
}

TEST_F(Catalog, NearMissSuggestsTheClosestIds) {
  std::string e = error_of([&] { judge::find_challenge(root_, "alpha_ad"); });
  EXPECT_CONTAINS(e, "'alpha_ad'");
  EXPECT_CONTAINS(e, root_.string());
  EXPECT_CONTAINS(e, "did you mean alpha_add");
  EXPECT_EQ(e.find("beta_scale"), std::string::npos) << e;

  e = error_of([&] { judge::find_challenge(root_, "alhpa_add"); });  // transposition
  EXPECT_CONTAINS(e, "did you mean alpha_add");
}

TEST_F(Catalog, SubstringSuggests) {
  std::string e = error_of([&] { judge::find_challenge(root_, "scale"); });
  EXPECT_CONTAINS(e, "did you mean beta_scale");
}

TEST_F(Catalog, SeveralSuggestionsAreAllNamed) {
  std::string e = error_of([&] { judge::find_challenge(root_, "a"); });  // a substring of every id
  EXPECT_CONTAINS(e, "alpha_add");
  EXPECT_CONTAINS(e, "beta_scale");
  EXPECT_CONTAINS(e, " or ");
}

TEST_F(Catalog, FarMissPointsAtTheList) {
  std::string e = error_of([&] { judge::find_challenge(root_, "matrix_multiplication"); });
  EXPECT_CONTAINS(e, "judge list");
  EXPECT_EQ(e.find("did you mean"), std::string::npos) << e;
}

TEST_F(Catalog, EmptyIdIsNotFound) {
  std::string e = error_of([&] { judge::find_challenge(root_, ""); });
  EXPECT_CONTAINS(e, "there is no challenge ''");
}

TEST_F(Catalog, PathLikeIdsAreRejectedEvenWhenTheyLeadToASpec) {
  // A valid challenge outside the root, reachable as ../outside.
  write_file(dir_ / "outside" / "spec.json", spec("outside"));
  ASSERT_TRUE(fs::exists(root_ / ".." / "outside" / "spec.json"));
  for (const std::string& id :
       std::vector<std::string>{"../outside", (dir_ / "outside").string(), "alpha_add/", "./alpha_add"}) {
    std::string e = error_of([&] { judge::find_challenge(root_, id); });
    EXPECT_CONTAINS(e, "there is no challenge '" + id + "'");
  }
}

TEST_F(Catalog, DotDotIsNotAnId) {
  // Regression: ".." has no '/', so root/../spec.json was loaded when the parent of the challenges directory was
  // itself a challenge folder (catalog.cpp accepted any id without a slash).
  TempDir outer_dir;
  fs::path parent = outer_dir.path() / "parent";
  write_file(parent / "spec.json", spec("parent"));
  write_file(parent / "challenges" / "alpha_add" / "spec.json", spec("alpha_add"));
  for (const std::string id : {"..", "."}) {
    std::string e = error_of([&] { judge::find_challenge(parent / "challenges", id); });
    EXPECT_CONTAINS(e, "there is no challenge '" + id + "'");
  }
}

TEST(CatalogRoot, MissingRootNamesItAndSaysHowToChooseAnother) {
  TempDir dir;
  fs::path missing = dir.path() / "no-such-dir";
  for (const auto& call : std::vector<std::function<void()>>{[&] { judge::scan_challenges(missing); },
                                                            [&] { judge::find_challenge(missing, "x"); }}) {
    std::string e = error_of(call);
    EXPECT_CONTAINS(e, missing.string());
    EXPECT_CONTAINS(e, "--challenges");
    EXPECT_CONTAINS(e, "JUDGE_CHALLENGES");
  }
}

TEST(CatalogRoot, RootThatIsAFileIsNotADirectory) {
  TempDir dir;
  write_file(dir / "file", "x");
  std::string e = error_of([&] { judge::scan_challenges(dir / "file"); });
  EXPECT_CONTAINS(e, (dir / "file").string());
}

}  // namespace

namespace {

// The repository's catalogue mirrors LeetGPU's: each of its challenges has LeetGPU's own performance case among its
// graded benchmarks, and every graded case keeps the statement's promises (the loader checks those); only the
// judge's own challenges (source "ours") have no such case.
TEST(RepositoryCatalog, EveryLeetGpuChallengeHasItsPerformanceCase) {
  const fs::path root = judge::testing::challenges_dir();
  int seen = 0;
  for (const auto& entry : judge::scan_challenges(root)) {
    ASSERT_TRUE(entry.challenge) << entry.dir << ": " << entry.error;
    const judge::Challenge& c = *entry.challenge;
    ++seen;
    const auto performance = std::count_if(c.benchmarks.begin(), c.benchmarks.end(),
                                           [](const judge::Case& k) { return k.leetgpu_performance; });
    if (c.source == "ours")
      EXPECT_EQ(performance, 0) << c.id << " is the judge's own: LeetGPU has no performance case for it";
    else
      EXPECT_EQ(performance, 1) << c.id << ": mark LeetGPU's own performance case (its sizes) as one benchmark with "
                                << "\"leetgpu_performance\": true";
  }
  EXPECT_GT(seen, 70) << root;
}

}  // namespace
