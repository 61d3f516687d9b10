// The build half of the examples' GPU tests, done ahead and in parallel: every example submission compiled for this
// GPU (the architecture `judge submit` picks for it) into the shared example cache, which the Files/Example tests
// then find, as `judge batch` builds ahead for its runs. A ctest fixture (tests/CMakeLists.txt): ctest runs it before
// them whenever they are selected. It fails, naming the file and nvcc's message, when an example does not compile,
// and when a build it made is not found again in the cache.
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "judge/core/build/build.hpp"
#include "judge/core/challenge/catalog.hpp"
#include "judge/core/run/judging.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;

TEST(ExampleBuilds, EveryExampleIsBuiltAheadIntoTheSharedCache) {
  JUDGE_REQUIRE_GPU();
  const judge::ProbeResult probe = judge::probe_devices(judge::testing::worker_path());
  ASSERT_FALSE(probe.devices.empty()) << "nvidia-smi lists a GPU but the worker found none";
  const std::string arch = probe.devices.front().build_arch();  // what `judge submit` builds for on device 0
  const std::vector<judge::testing::ExampleFile> examples = judge::testing::example_files();
  ASSERT_FALSE(examples.empty());
  std::map<std::string, judge::Challenge> challenges;
  for (const auto& e : examples)
    if (!challenges.count(e.challenge))
      challenges.emplace(e.challenge, judge::find_challenge(judge::testing::challenges_dir(), e.challenge));

  auto request = [&](const judge::testing::ExampleFile& e) {
    judge::BuildRequest req;
    req.source = e.file;
    req.arch = arch;
    req.cache_dir = judge::testing::shared_example_cache();
    return req;
  };
  std::vector<judge::BuildResult> results(examples.size());
  std::vector<std::string> errors(examples.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < examples.size();) {
      try {
        results[i] = judge::build_solution(challenges.at(examples[i].challenge), request(examples[i]));
      } catch (const std::exception& ex) {
        errors[i] = ex.what();
      }
    }
  };
  std::vector<std::thread> threads;
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned k = 0; k < n; ++k) threads.emplace_back(work);
  for (auto& t : threads) t.join();

  for (std::size_t i = 0; i < examples.size(); ++i) {
    EXPECT_TRUE(errors[i].empty()) << examples[i].file << ": " << errors[i];
    EXPECT_TRUE(results[i].ok) << examples[i].file << " does not compile for " << arch << ":\n"
                               << results[i].diagnostics;
  }
  // What the examples' tests will ask for is there now: the same request finds it in the cache.
  const judge::BuildResult again =
      judge::build_solution(challenges.at(examples.front().challenge), request(examples.front()));
  EXPECT_TRUE(again.ok);
  EXPECT_TRUE(again.cached) << examples.front().file << " was built but is not found in "
                            << judge::testing::shared_example_cache();
}

}  // namespace
