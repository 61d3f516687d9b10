// Every example submission is accepted by `judge submit` on the GPU, lists the kernels it launched, and appears on
// the leaderboard; `judge run` accepts the challenges' starters' signatures (they compile) but not their empty
// kernels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using nlohmann::json;

struct Submission {
  std::string challenge;
  fs::path file;
};

void PrintTo(const Submission& s, std::ostream* os) { *os << s.file.string(); }

std::vector<Submission> submissions() {
  std::vector<Submission> out;
  fs::path root = judge::testing::source_dir() / "submissions";
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".cu") out.push_back({dir.path().filename().string(), f.path()});
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.file < b.file; });
  return out;
}

class Example : public ::testing::TestWithParam<Submission> {};

TEST_P(Example, IsAcceptedAndRanked) {
  JUDGE_REQUIRE_GPU();
  const Submission& s = GetParam();
  TempDir tmp;
  std::map<std::string, std::string> env = {{"JUDGE_CACHE_DIR", (tmp / "cache").string()},
                                            {"JUDGE_DB", (tmp / "db.sqlite").string()},
                                            {"JUDGE_CALIBRATION", judge::testing::shared_calibration_file()}};
  std::string cli = judge::testing::cli_path().string();
  std::string user = s.file.stem().string();
  // A short timing budget: this checks acceptance and recording, not performance (see bench/ for that).
  auto r = judge::testing::run_command({cli, "--json", "submit", s.challenge, s.file.string(), "--name", user,
                                        "--budget", "0.3", "--min-samples", "5"},
                                       env);
  json j = json::parse(r.output, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.output;
  ASSERT_EQ(j.value("verdict", ""), "accepted") << j.value("message", "") << "\n" << j.dump(2).substr(0, 4000);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GT(j.value("score_ms", 0.0), 0.0);
  for (const auto& c : j["cases"])
    if (c["kind"] == "benchmark") {
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
  json board = json::parse(lb.output, nullptr, false);
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

INSTANTIATE_TEST_SUITE_P(Files, Example, ::testing::ValuesIn(submissions()), name_of);

TEST(Starter, CompilesButIsNotAccepted) {
  JUDGE_REQUIRE_GPU();
  for (const auto& dir : fs::directory_iterator(judge::testing::challenges_dir())) {
    if (!fs::exists(dir.path() / "starter.cu")) continue;
    TempDir tmp;
    std::string id = dir.path().filename().string();
    auto r = judge::testing::run_command(
        {judge::testing::cli_path().string(), "--json", "run", id, (dir.path() / "starter.cu").string()},
        {{"JUDGE_CACHE_DIR", (tmp / "cache").string()}});
    json j = json::parse(r.output, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.output;
    EXPECT_TRUE(j["build"]["ok"].get<bool>()) << id << ": " << j["build"]["diagnostics"];
    EXPECT_NE(j.value("verdict", ""), "accepted") << id << ": an empty starter must not pass";
  }
}

}  // namespace
