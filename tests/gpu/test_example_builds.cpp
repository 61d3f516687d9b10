// The build half of the examples' GPU tests, done ahead and in parallel: every example submission compiled for this
// GPU (the architecture `judge submit` picks for it) into the shared example cache, which the Files/Example tests
// then find, as `judge batch` builds ahead for its runs. A ctest fixture (tests/CMakeLists.txt): ctest runs it before
// them whenever they are selected. It fails, naming the file and nvcc's message, when an example does not compile,
// and when a build it made is not found again in the cache.
#include <vector>

#include <gtest/gtest.h>

#include "support/build_ahead.hpp"
#include "support/test_support.hpp"

namespace {

TEST(ExampleBuilds, EveryExampleIsBuiltAheadIntoTheSharedCache) {
  JUDGE_REQUIRE_GPU();
  const std::string arch = judge::testing::device_build_arch();
  std::vector<judge::testing::AheadBuild> builds;
  for (const auto& e : judge::testing::example_files()) builds.push_back({e.challenge, e.file});
  ASSERT_FALSE(builds.empty());
  const auto cache = judge::testing::shared_example_cache();
  const auto results = judge::testing::build_ahead(builds, cache, arch);
  for (std::size_t i = 0; i < builds.size(); ++i) {
    EXPECT_TRUE(results[i].error.empty()) << builds[i].file << ": " << results[i].error;
    EXPECT_TRUE(results[i].build.ok) << builds[i].file << " does not compile for " << arch << ":\n"
                                     << results[i].build.diagnostics;
  }
  // What the examples' tests will ask for is there now: the same request finds it in the cache.
  const auto again = judge::testing::build_ahead({builds.front()}, cache, arch);
  EXPECT_TRUE(again[0].build.ok);
  EXPECT_TRUE(again[0].build.cached) << builds.front().file << " was built but is not found in " << cache;
}

}  // namespace
