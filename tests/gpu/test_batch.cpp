// `judge batch` on the GPU: several submissions judged at once on one GPU, each accepted and recorded under its own
// name, and no two of them timed at the same time (their timing windows, taken from each run's report, are disjoint).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

using judge::testing::TempDir;
using nlohmann::json;

// What a failed batch says about each submission it did not accept (the whole JSON is too long to read in a log).
std::string rejections(const std::string& output) {
  json j = judge::testing::json_of(output);
  if (j.is_discarded() || !j.contains("results")) return output.substr(0, 4000);
  std::string text;
  for (const auto& r : j["results"]) {
    const json& rep = r.value("report", json::object());
    if (rep.value("verdict", "") == "accepted") continue;
    text += r.value("name", "?") + ": " + rep.value("verdict", "?") + " in case " + rep.value("failed_case", "-") +
            ": " + rep.value("message", "") + "\n";
  }
  return text.empty() ? output.substr(0, 4000) : text;
}

TEST(Batch, JudgesEverySubmissionAndTimesThemOneAtATime) {
  JUDGE_REQUIRE_GPU();
  TempDir tmp;
  const std::map<std::string, std::string> env = {{"JUDGE_CACHE_DIR", (tmp / "cache").string()},
                                                  {"JUDGE_DB", (tmp / "db.sqlite").string()},
                                                  {"JUDGE_CALIBRATION", judge::testing::shared_calibration_file()}};
  // Six students, one folder each: both rungs of the vector_add ladder, three times over.
  const auto ladder = judge::testing::source_dir() / "submissions" / "vector_add";
  std::vector<std::string> students;
  for (int k = 0; k < 6; ++k) {
    students.push_back("student" + std::to_string(k));
    std::filesystem::create_directories(tmp / "class" / students.back());
    std::filesystem::copy_file(ladder / (k % 2 ? "2_float4.cu" : "1_naive.cu"),
                               tmp / "class" / students.back() / "solve.cu");
  }
  const std::string cli = judge::testing::cli_path().string();
  auto run = judge::testing::run_command({cli, "--json", "batch", "vector_add", (tmp / "class").string(), "--name-from",
                                          "folder", "--gpus", "0", "--runs-per-gpu", "3", "--budget", "0.2",
                                          "--min-samples", "5"},
                                         env, 900);
  ASSERT_EQ(run.exit_code, 0) << rejections(run.output);
  json j = judge::testing::json_of(run.output);
  ASSERT_FALSE(j.is_discarded()) << run.output.substr(0, 4000);
  ASSERT_EQ(j["results"].size(), students.size()) << j.dump(2).substr(0, 4000);
  std::vector<std::pair<double, double>> windows;
  std::set<std::string> names;
  for (const auto& r : j["results"]) {
    names.insert(r.value("name", ""));
    EXPECT_EQ(r["report"].value("verdict", ""), "accepted") << r["report"].value("message", "");
    EXPECT_TRUE(r.contains("record") && r["record"].value("recorded", false)) << r.dump(2).substr(0, 2000);
    ASSERT_TRUE(r["report"].contains("gpu_lock")) << "timed without holding the GPU";
    // Every hold (the graded benchmarks', the stress benchmarks' when stress tests came between, a fresh worker's
    // after a stress case ended one): another run may time between two holds of one run, never during one.
    ASSERT_FALSE(r["report"]["gpu_lock"]["holds_s"].empty()) << r["report"]["gpu_lock"].dump();
    for (const auto& w : r["report"]["gpu_lock"]["holds_s"])
      windows.emplace_back(w.at(0).get<double>(), w.at(1).get<double>());
  }
  EXPECT_EQ(names, std::set<std::string>(students.begin(), students.end()));
  std::sort(windows.begin(), windows.end());
  for (std::size_t k = 1; k < windows.size(); ++k)
    EXPECT_LE(windows[k - 1].second, windows[k].first) << "two runs of the batch timed on the GPU at once";

  auto lb = judge::testing::run_command({cli, "--json", "leaderboard", "vector_add"}, env, 60);
  json board = judge::testing::json_of(lb.output);
  ASSERT_FALSE(board.is_discarded()) << lb.output;
  std::set<std::string> ranked;
  for (const auto& view : board["leaderboards"])
    for (const auto& row : view["ranking"]) ranked.insert(row.value("user", ""));
  EXPECT_EQ(ranked, names);
}

}  // namespace
