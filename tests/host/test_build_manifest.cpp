// A cached build is loaded only while its manifest vouches for it. By hand first (no compiler): a manifest records the
// key and the library's digest, and any change to either is found. Then through build_solution with nvcc (no GPU):
// a solution.so renamed over another submission's cached build, a build directory swapped for another's, or a build
// without a manifest is built again, never loaded, and what is loaded is the submission's own code.
#include "judge/core/build/build_manifest.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "judge/core/base/error.hpp"
#include "judge/core/base/sha256.hpp"
#include "judge/core/build/build.hpp"
#include "judge/core/build/verified_library.hpp"
#include "support/test_support.hpp"

namespace judge {
namespace {

namespace fs = std::filesystem;
using judge::testing::read_file;
using judge::testing::TempDir;
using judge::testing::write_file;

const std::string kKey = sha256_hex("a cache key");
const std::string kOtherKey = sha256_hex("another cache key");

fs::path fake_build(const TempDir& tmp, const std::string& name, const std::string& library) {
  write_file(tmp / name / kBuildLibraryName, library);
  return tmp / name;
}

TEST(BuildManifest, RecordsTheKeyAndTheLibrarysDigestAndSize) {
  TempDir tmp;
  const fs::path dir = fake_build(tmp, "b", "library bytes");
  BuildManifest written = write_build_manifest(dir, kKey);
  EXPECT_EQ(written.key, kKey);
  EXPECT_EQ(written.library_sha256, sha256_hex("library bytes"));
  EXPECT_EQ(written.library_bytes, 13u);
  BuildManifest read;
  EXPECT_EQ(check_build_manifest(dir, kKey, read), "");
  EXPECT_EQ(read.library_sha256, written.library_sha256);
  EXPECT_EQ(read.library_bytes, 13u);
}

TEST(BuildManifest, EveryChangeIsFound) {
  TempDir tmp;
  BuildManifest m;
  const fs::path changed = fake_build(tmp, "changed", "library bytes");
  write_build_manifest(changed, kKey);
  write_file(changed / kBuildLibraryName, "other bytes!!");  // the same size: the digest finds it
  EXPECT_NE(check_build_manifest(changed, kKey, m).find("but the judge recorded"), std::string::npos);

  const fs::path swapped = fake_build(tmp, "swapped", "library bytes");
  write_build_manifest(swapped, kOtherKey);
  EXPECT_NE(check_build_manifest(swapped, kKey, m).find("names build " + kOtherKey), std::string::npos);

  const fs::path bare = fake_build(tmp, "bare", "library bytes");
  EXPECT_NE(check_build_manifest(bare, kKey, m).find("no manifest.json"), std::string::npos);

  const fs::path forged = fake_build(tmp, "forged", "library bytes");
  write_file(forged / kBuildManifestName, "{\"key\": 1}");
  EXPECT_NE(check_build_manifest(forged, kKey, m).find("not one the judge wrote"), std::string::npos);

  const fs::path gone = fake_build(tmp, "gone", "library bytes");
  write_build_manifest(gone, kKey);
  fs::remove(gone / kBuildLibraryName);
  EXPECT_NE(check_build_manifest(gone, kKey, m), "");
}

TEST(BuildManifest, ACachedBuildThatChangedIsRemovedWithANote) {
  TempDir tmp;
  const fs::path dir = fake_build(tmp, "b", "library bytes");
  write_build_manifest(dir, kKey);
  std::string sha, note;
  EXPECT_TRUE(accept_cached_build(dir, kKey, sha, note));
  EXPECT_EQ(sha, sha256_hex("library bytes"));
  EXPECT_EQ(note, "");

  write_file(dir / kBuildLibraryName, "poisoned");
  EXPECT_FALSE(accept_cached_build(dir, kKey, sha, note));
  EXPECT_FALSE(fs::exists(dir)) << "a build that changed stays in the cache";
  EXPECT_NE(note.find(dir.string()), std::string::npos) << note;
  EXPECT_NE(note.find("built again"), std::string::npos) << note;
}

TEST(BuildManifest, PublishingWhereAnotherJudgePublishedFirstKeepsTheirsOnlyWhenIntact) {
  TempDir tmp;
  fs::create_directories(tmp / "builds");
  const fs::path published = tmp / "builds" / "k";
  std::string note;
  // Nobody first: ours is published with its manifest.
  EXPECT_EQ(publish_build(fake_build(tmp, "staging1", "ours"), published, kKey, note), sha256_hex("ours"));
  EXPECT_FALSE(fs::exists(tmp / "staging1"));
  EXPECT_EQ(read_file(published / kBuildLibraryName), "ours");
  EXPECT_EQ(note, "");
  // An intact build is there already: it is used, and the digest returned is its own.
  EXPECT_EQ(publish_build(fake_build(tmp, "staging2", "a second build"), published, kKey, note), sha256_hex("ours"));
  EXPECT_FALSE(fs::exists(tmp / "staging2"));
  EXPECT_EQ(note, "");
  // A build that changed is there: ours replaces it.
  write_file(published / kBuildLibraryName, "poisoned");
  EXPECT_EQ(publish_build(fake_build(tmp, "staging3", "a third"), published, kKey, note), sha256_hex("a third"));
  EXPECT_EQ(read_file(published / kBuildLibraryName), "a third");
  EXPECT_NE(note.find("built again"), std::string::npos) << note;
}

// Through build_solution, with nvcc. Two vector_add submissions whose solve() does host work only, so that the
// built library can be called without a GPU and shows whose code it is.
const char* kSpec = R"({
  "id": "vadd", "title": "t", "difficulty": "easy", "summary": "s",
  "params": [
    {"name": "A", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "B", "role": "input", "dtype": "float32", "shape": ["N"]},
    {"name": "C", "role": "output", "dtype": "float32", "shape": ["N"]},
    {"name": "N", "role": "scalar", "dtype": "int32"}
  ],
  "tolerance": {"atol": 1e-6, "rtol": 1e-6},
  "flops": "N",
  "tests": [{"name": "t1", "scalars": {"N": 7}}],
  "benchmarks": [{"name": "b1", "scalars": {"N": 1000}}]
})";

const char* kHonest = R"(extern "C" void solve(const float* A, const float* B, float* C, int N) {
  for (int i = 0; i < N; ++i) C[i] = A[i] + B[i];
}
)";

const char* kAttacker = R"(extern "C" void solve(const float* A, const float* B, float* C, int N) {
  for (int i = 0; i < N; ++i) C[i] = 666;
}
)";

class CachedBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      nvcc_ = find_nvcc();
    } catch (const Error& e) {
      GTEST_SKIP() << "nvcc is not installed here: " << e.what();
    }
    challenge_ = parse_challenge(kSpec, "vadd/spec.json");
  }

  BuildRequest request(const std::string& source, const std::string& folder) {
    const fs::path path = dir_ / folder / "solve.cu";
    write_file(path, source);
    BuildRequest req;
    req.source = path;
    req.arch = "sm_75";  // any architecture compiles without a GPU; the oldest supported one is the quickest
    req.cache_dir = dir_ / "cache";
    req.nvcc = nvcc_;
    return req;
  }

  BuildResult build(const std::string& source, const std::string& folder) {
    return build_solution(challenge_, request(source, folder));
  }

  // Loads the library as the worker will (a sealed memfd checked against the digest) and calls solve(1, 2, C, 1).
  static float run(const BuildResult& r) {
    UniqueFd fd = open_verified_library(r.library, r.library_sha256);
    void* handle = ::dlopen(library_fd_path(fd.get()).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error(std::string("dlopen: ") + ::dlerror());
    auto entry = reinterpret_cast<void (*)(void* const*)>(::dlsym(handle, "judge_entry"));
    if (!entry) throw std::runtime_error("no judge_entry");
    float a = 1, b = 2, c = 0;
    int n = 1;
    const void* pa = &a;
    const void* pb = &b;
    void* pc = &c;
    void* const args[] = {&pa, &pb, &pc, &n};
    entry(args);
    return c;  // never dlclose'd, like the worker's Solution
  }

  TempDir dir_;
  std::string nvcc_;
  Challenge challenge_;
};

TEST_F(CachedBuild, BothPathsReportTheDigestOfTheLibraryOnDisk) {
  BuildResult fresh = build(kHonest, "alice");
  ASSERT_TRUE(fresh.ok) << fresh.diagnostics;
  EXPECT_FALSE(fresh.cached);
  EXPECT_EQ(fresh.library_sha256, sha256_hex(read_file(fresh.library)));
  EXPECT_TRUE(fs::exists(fresh.library.parent_path() / kBuildManifestName));
  BuildResult cached = build(kHonest, "alice");
  ASSERT_TRUE(cached.ok);
  EXPECT_TRUE(cached.cached);
  EXPECT_EQ(cached.library_sha256, fresh.library_sha256);
  EXPECT_EQ(cached.cache_note, "");
  EXPECT_EQ(run(cached), 3);
}

// `judge batch` may build one source on two threads at once: the second to finish uses the first's build, and
// must report that build's digest, not its own library's, or the loader would refuse a build that is intact.
TEST_F(CachedBuild, TwoThreadsBuildingTheSameSourceReportTheDigestOfThePublishedLibrary) {
  const BuildRequest req = request(kHonest, "alice");
  BuildResult a, b;
  std::thread other([&] { b = build_solution(challenge_, req); });
  a = build_solution(challenge_, req);
  other.join();
  ASSERT_TRUE(a.ok && b.ok) << a.diagnostics << b.diagnostics;
  const std::string on_disk = sha256_hex(read_file(a.library));
  EXPECT_EQ(a.library_sha256, on_disk);
  EXPECT_EQ(b.library_sha256, on_disk);
  EXPECT_EQ(run(a), 3);
}

// The issue's cache poisoning: a submission renamed its own solution.so over a classmate's cached build.
TEST_F(CachedBuild, ALibraryRenamedOverAnotherBuildIsRebuiltNotLoaded) {
  BuildResult alice = build(kHonest, "alice");
  BuildResult mallory = build(kAttacker, "mallory");
  ASSERT_TRUE(alice.ok && mallory.ok) << alice.diagnostics << mallory.diagnostics;
  ASSERT_NE(alice.library, mallory.library);
  const std::string poisoned = read_file(mallory.library);
  fs::rename(mallory.library, alice.library);

  BuildResult again = build(kHonest, "alice");
  ASSERT_TRUE(again.ok) << again.diagnostics;
  EXPECT_FALSE(again.cached) << "the poisoned build was used";
  EXPECT_EQ(again.library, alice.library);
  EXPECT_NE(read_file(again.library), poisoned);
  EXPECT_EQ(again.library_sha256, sha256_hex(read_file(again.library)));
  EXPECT_NE(again.cache_note.find(alice.library.parent_path().string()), std::string::npos) << again.cache_note;
  EXPECT_NE(again.cache_note.find("but the judge recorded"), std::string::npos) << again.cache_note;
  EXPECT_EQ(run(again), 3) << "alice's build runs someone else's code";
}

// The whole directory swapped for another build's, manifest and all: the manifest names the other key.
TEST_F(CachedBuild, ABuildDirectorySwappedForAnothersIsRebuilt) {
  BuildResult alice = build(kHonest, "alice");
  BuildResult mallory = build(kAttacker, "mallory");
  ASSERT_TRUE(alice.ok && mallory.ok);
  fs::remove_all(alice.library.parent_path());
  fs::rename(mallory.library.parent_path(), alice.library.parent_path());

  BuildResult again = build(kHonest, "alice");
  ASSERT_TRUE(again.ok) << again.diagnostics;
  EXPECT_FALSE(again.cached);
  EXPECT_NE(again.cache_note.find("names build"), std::string::npos) << again.cache_note;
  EXPECT_EQ(run(again), 3);
}

TEST_F(CachedBuild, ABuildWithoutAManifestIsRebuilt) {
  BuildResult first = build(kHonest, "alice");
  ASSERT_TRUE(first.ok);
  fs::remove(first.library.parent_path() / kBuildManifestName);
  BuildResult again = build(kHonest, "alice");
  ASSERT_TRUE(again.ok);
  EXPECT_FALSE(again.cached);
  EXPECT_NE(again.cache_note.find("no manifest.json"), std::string::npos) << again.cache_note;
  EXPECT_TRUE(fs::exists(again.library.parent_path() / kBuildManifestName));
  // And the rebuilt one is trusted again.
  EXPECT_TRUE(build(kHonest, "alice").cached);
}

// Changed after build_solution returned: the loader's own check refuses it.
TEST_F(CachedBuild, ALibraryChangedAfterTheBuildIsRefusedByTheLoader) {
  BuildResult alice = build(kHonest, "alice");
  BuildResult mallory = build(kAttacker, "mallory");
  ASSERT_TRUE(alice.ok && mallory.ok);
  fs::rename(mallory.library, alice.library);
  EXPECT_THROW(run(alice), Error);
}

}  // namespace
}  // namespace judge
