// Every challenge's starter.cu goes through `judge run` on the GPU: its signature is the one the judge calls (it
// compiles), and its empty kernel is not accepted. The starters are compiled ahead, one nvcc per core, into one cache
// (starters are the repository's own code, so they may share it); then several `judge run`s at once find their build
// there and only judge, as many at once as the test holds slots of the GPU (tests/CMakeLists.txt), and the results are
// checked in order once all have run.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include "support/build_ahead.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(Starter, CompilesButIsNotAccepted) {
  JUDGE_REQUIRE_GPU();
  std::vector<judge::testing::AheadBuild> starters;
  for (const auto& dir : fs::directory_iterator(judge::testing::challenges_dir()))
    if (fs::exists(dir.path() / "starter.cu"))
      starters.push_back({dir.path().filename().string(), dir.path() / "starter.cu"});
  std::sort(starters.begin(), starters.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  ASSERT_FALSE(starters.empty());
  // Behind the examples' builds for the cores (nvcc and the judges inherit this), as the corpus builds are.
  errno = 0;
  if (::nice(10) == -1 && errno != 0) ADD_FAILURE() << "nice: " << std::strerror(errno);
  judge::testing::TempDir tmp;
  const fs::path cache = tmp / "cache";
  const auto built = judge::testing::build_ahead(starters, cache, judge::testing::device_build_arch());

  std::vector<judge::testing::CommandResult> results(starters.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < starters.size();)
      results[i] = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "run",
                                                starters[i].challenge, starters[i].file.string()},
                                               {{"JUDGE_CACHE_DIR", cache.string()}});
  };
  // As many judges at once as the slots of the GPU ctest gave this test: judges beyond the slots share the GPU with
  // every other test's and slow them all (a run of the suite with eight here at one slot took the corpus entries from
  // 4 to 13 s each).
  std::vector<std::thread> threads;
  const unsigned n = static_cast<unsigned>(judge::testing::assigned_gpu_slots(4));
  for (unsigned k = 0; k < n; ++k) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < starters.size(); ++i) {
    const std::string& id = starters[i].challenge;
    EXPECT_TRUE(built[i].error.empty()) << id << ": " << built[i].error;
    json j = judge::testing::json_of(results[i].output);
    ASSERT_FALSE(j.is_discarded()) << id << ": " << results[i].output;
    EXPECT_TRUE(j["build"]["ok"].get<bool>()) << id << ": " << j["build"]["diagnostics"];
    EXPECT_NE(j.value("verdict", ""), "accepted") << id << ": an empty starter must not pass";
  }
}

}  // namespace
