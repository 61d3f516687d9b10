// Every example submission is accepted by `judge submit` on the GPU, lists the kernels it launched, and appears on
// the leaderboard. The examples' builds come from the cache gpu_test_example_builds filled (a ctest fixture), when it
// ran.
#include <iostream>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace {

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
  // Where the example's time went, for the suite's timeline (README, Tests): the judge's wall time, and how long it
  // waited for and held the GPU's timing lock.
  double held = 0;
  if (j.contains("gpu_lock"))
    for (const auto& h : j["gpu_lock"].value("holds_s", json::array())) held += h[1].get<double>() - h[0].get<double>();
  std::cout << "example: " << s.challenge << "/" << s.file.filename().string() << " wall_s=" << j.value("wall_s", 0.0)
            << " lock_waited_s=" << (j.contains("gpu_lock") ? j["gpu_lock"].value("waited_s", 0.0) : 0.0)
            << " lock_held_s=" << held << std::endl;
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

}  // namespace
