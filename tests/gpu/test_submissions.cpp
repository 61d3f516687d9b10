// Every example submission is accepted by `judge submit` on the GPU, lists the kernels it launched, and appears on
// the leaderboard; `judge run` accepts the challenges' starters' signatures (they compile) but not their empty
// kernels. The examples' builds come from the cache gpu_test_example_builds filled (a ctest fixture), when it ran.
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using nlohmann::json;

using Submission = judge::testing::ExampleFile;

}  // namespace

namespace judge::testing {
void PrintTo(const ExampleFile& s, std::ostream* os) { *os << s.file.string(); }
}  // namespace judge::testing

namespace {

class Example : public ::testing::TestWithParam<Submission> {};

TEST_P(Example, IsAcceptedAndRanked) {
  JUDGE_REQUIRE_GPU();
  const Submission& s = GetParam();
  TempDir tmp;
  // The shared cache holds this example's build (see test_support.hpp); each test keeps its own database.
  std::map<std::string, std::string> env = {{"JUDGE_CACHE_DIR", judge::testing::shared_example_cache().string()},
                                            {"JUDGE_DB", (tmp / "db.sqlite").string()},
                                            {"JUDGE_CALIBRATION", judge::testing::shared_calibration_file()}};
  std::string cli = judge::testing::cli_path().string();
  std::string user = s.file.stem().string();
  // A short timing budget: this checks acceptance and recording, not performance (see bench/ for that).
  auto r = judge::testing::run_command({cli, "--json", "submit", s.challenge, s.file.string(), "--name", user,
                                        "--budget", "0.1", "--min-samples", "5", "--warmup", "0.02"},
                                       env);
  json j = judge::testing::json_of(r.output);
  ASSERT_FALSE(j.is_discarded()) << r.output;
  ASSERT_EQ(j.value("verdict", ""), "accepted") << j.value("message", "") << "\n" << j.dump(2).substr(0, 4000);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GT(j.value("score_ms", 0.0), 0.0);
  // The examples hold beyond the statement's promises too: their stress cases pass (they decide no verdict, so
  // this is the only place a regression there would show).
  for (const auto& c : j["cases"])
    if (c.value("stress", false))
      EXPECT_EQ(c.value("verdict", ""), "accepted") << c.value("name", "") << ": " << c.value("message", "");
  for (const auto& c : j["cases"])
    if (c["kind"] == "benchmark" && c.value("verdict", "") == "accepted") {
      EXPECT_GT(c["timing"]["median_ms"].get<double>(), 0.0) << c.dump();
      EXPECT_GT(c.value("speedup", 0.0), 0.0) << c.dump();
      EXPECT_GT(c["speed_of_light"]["percent"].get<double>(), 0.0) << c.dump();
    }
  // Every kernel it launched while timed, with the resources CUPTI saw and the occupancy they allow.
  ASSERT_TRUE(j.contains("kernels") && !j["kernels"].empty()) << j.dump(2).substr(0, 4000);
  double time_percent = 0;
  for (const auto& k : j["kernels"]) {
    EXPECT_GT(k["block_threads"].get<int>(), 0) << k.dump();
    EXPECT_GT(k["registers"].get<int>(), 0) << k.dump();
    EXPECT_GT(k["occupancy"]["percent"].get<double>(), 0.0) << k.dump();
    EXPECT_FALSE(k["occupancy"].contains("error")) << k.dump();
    time_percent += k["time_percent"].get<double>();
  }
  EXPECT_NEAR(time_percent, 100.0, 0.5) << j["kernels"].dump(2);
  ASSERT_TRUE(j["record"]["recorded"].get<bool>()) << j["record"].dump();

  auto lb = judge::testing::run_command({cli, "--json", "leaderboard", s.challenge}, env);
  json board = judge::testing::json_of(lb.output);
  ASSERT_FALSE(board.is_discarded()) << lb.output;
  ASSERT_EQ(board["leaderboards"].size(), 1u) << board.dump(2);
  ASSERT_EQ(board["leaderboards"][0]["ranking"].size(), 1u);
  EXPECT_EQ(board["leaderboards"][0]["ranking"][0]["user"], user);
}

std::string name_of(const ::testing::TestParamInfo<Submission>& info) {
  std::string n = info.param.challenge + "_" + info.param.file.stem().string();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, Example, ::testing::ValuesIn(judge::testing::example_files()), name_of);

TEST(Starter, CompilesButIsNotAccepted) {
  JUDGE_REQUIRE_GPU();
  std::vector<std::string> ids;
  for (const auto& dir : fs::directory_iterator(judge::testing::challenges_dir()))
    if (fs::exists(dir.path() / "starter.cu")) ids.push_back(dir.path().filename().string());
  std::sort(ids.begin(), ids.end());
  ASSERT_FALSE(ids.empty());
  // nvcc dominates and the functional tests only check verdicts: the starters go through several `judge run`s at
  // once, each with its own cache, and are checked here in order once all have run.
  TempDir tmp;
  std::vector<judge::testing::CommandResult> results(ids.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < ids.size();) {
      const fs::path starter = judge::testing::challenges_dir() / ids[i] / "starter.cu";
      results[i] = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "run", ids[i],
                                                starter.string()},
                                               {{"JUDGE_CACHE_DIR", (tmp / ids[i]).string()}});
    }
  };
  std::vector<std::thread> threads;
  const unsigned n = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  for (unsigned k = 0; k < n; ++k) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    json j = judge::testing::json_of(results[i].output);
    ASSERT_FALSE(j.is_discarded()) << ids[i] << ": " << results[i].output;
    EXPECT_TRUE(j["build"]["ok"].get<bool>()) << ids[i] << ": " << j["build"]["diagnostics"];
    EXPECT_NE(j.value("verdict", ""), "accepted") << ids[i] << ": an empty starter must not pass";
  }
}

}  // namespace
