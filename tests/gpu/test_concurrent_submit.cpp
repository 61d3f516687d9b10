// Four `judge submit`s of the same file at once, sharing one leaderboard database and one build cache: every one is
// accepted and recorded, the leaderboard lists all four users, and no two of them timed at the same time (one timer
// per GPU: each holds the GPU's lock for its benchmarks, the others wait). This is what a shared lab machine does; the build
// cache must cope with four builders of the same key (private directory + rename) and the database with four writers
// (WAL + busy timeout).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "judge/core/sandbox/process.hpp"
#include "support/test_support.hpp"

namespace {

using judge::testing::TempDir;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string calibration_file() { return judge::testing::shared_calibration_file(); }

TEST(ConcurrentSubmit, FourJudgesShareOneDatabaseAndOneBuildCache) {
  JUDGE_REQUIRE_GPU();
  constexpr int kJudges = 4;
  TempDir tmp;
  const std::map<std::string, std::string> env = {{"JUDGE_CACHE_DIR", (tmp / "cache").string()},
                                                  {"JUDGE_DB", (tmp / "db.sqlite").string()},
                                                  {"JUDGE_CALIBRATION", calibration_file()}};
  const std::string cli = judge::testing::cli_path().string();
  // The GPU's ceilings are measured alone, first (or read from the file the corpus test also uses): four first-time
  // judges would otherwise each calibrate on a GPU shared with the other three. What is under test here is the shared
  // build cache and database.
  auto cal = judge::testing::run_command({cli, "--json", "calibrate"}, env, 600);
  ASSERT_EQ(cal.exit_code, 0) << cal.output.substr(0, 4000);
  const std::string source = (judge::testing::source_dir() / "submissions" / "vector_add" / "1_naive.cu").string();

  std::vector<judge::ChildProcess> children;
  std::vector<bool> finished(kJudges, false);
  auto start = Clock::now();
  for (int k = 0; k < kJudges; ++k) {
    judge::SpawnOptions opt;
    opt.argv = {cli,      "submit", "vector_add", source, "--name", "user" + std::to_string(k), "--budget", "0.3",
                "--min-samples", "5", "--json"};
    opt.env = env;
    opt.output_limit = 16u << 20;
    children.push_back(judge::ChildProcess::spawn(opt));
  }

  // The judges write nothing on the message pipe; it closes when each exits. Poll them in turn so that none of them
  // waits on a full output pipe while we wait on another.
  const auto deadline = start + std::chrono::minutes(10);
  for (int remaining = kJudges; remaining > 0 && Clock::now() < deadline;) {
    for (int k = 0; k < kJudges; ++k) {
      if (finished[k]) continue;
      std::string line;
      auto next = children[k].next_message(line, Clock::now() + std::chrono::milliseconds(100));
      if (next == judge::ChildProcess::Next::closed) {
        finished[k] = true;
        --remaining;
      }
    }
  }
  std::vector<std::pair<double, double>> windows;  // every judge's holds of the GPU, CLOCK_MONOTONIC seconds
  int waited = 0;
  std::vector<judge::ExitStatus> status;
  for (auto& c : children) status.push_back(c.wait(Clock::now() + std::chrono::seconds(30)));
  double took = std::chrono::duration<double>(Clock::now() - start).count();
  RecordProperty("seconds", std::to_string(took));
  std::cout << "concurrent_submit: " << kJudges << " judges in " << took << " s" << std::endl;

  for (int k = 0; k < kJudges; ++k) {
    SCOPED_TRACE("user" + std::to_string(k));
    EXPECT_TRUE(finished[k]) << "judge " << k << " did not finish within the deadline";
    EXPECT_TRUE(status[k].ok()) << status[k].describe() << "\n" << children[k].output().substr(0, 4000);
    // stderr shares the captured output: the lines saying whom a judge waited for, then the JSON report.
    std::string report, waiting_lines;
    {
      std::istringstream lines(children[k].output());
      for (std::string line; std::getline(lines, line);)
        (line.rfind("waiting for GPU ", 0) == 0 ? waiting_lines : report) += line + "\n";
    }
    json j = json::parse(report, nullptr, false);
    if (j.is_discarded()) {
      ADD_FAILURE() << "not JSON: " << children[k].output().substr(0, 4000);
      continue;
    }
    EXPECT_EQ(j.value("verdict", ""), "accepted") << j.value("message", "");
    if (!j.contains("gpu_lock")) {
      ADD_FAILURE() << "no gpu_lock in the report: the benchmarks were timed without holding the GPU";
    } else {
      // Each hold of the GPU (graded benchmarks, then stress benchmarks after stress tests): another judge may time
      // between two holds of one judge, never during one.
      EXPECT_FALSE(j["gpu_lock"]["holds_s"].empty()) << j["gpu_lock"].dump();
      for (const auto& w : j["gpu_lock"]["holds_s"]) {
        windows.emplace_back(w.at(0).get<double>(), w.at(1).get<double>());
        EXPECT_LT(windows.back().first, windows.back().second) << j["gpu_lock"].dump();
      }
      const bool did_wait = j["gpu_lock"].value("waited", false);
      waited += did_wait;
      // A judge that waited said so, naming the holder.
      if (did_wait)
        EXPECT_NE(waiting_lines.find("judge submit by user"), std::string::npos)
            << "waited without saying for whom: " << waiting_lines << j["gpu_lock"].dump();
      else
        EXPECT_EQ(waiting_lines, "");
    }
    EXPECT_TRUE(j.contains("record") && j["record"].value("recorded", false))
        << (j.contains("record") ? j["record"].dump() : j.dump(2).substr(0, 4000));
  }

  // The timed phases are disjoint: sorted by start, each ends before the next begins.
  std::sort(windows.begin(), windows.end());
  for (std::size_t k = 1; k < windows.size(); ++k)
    EXPECT_LE(windows[k - 1].second, windows[k].first)
        << "two judges timed on the GPU at once: [" << windows[k - 1].first << ", " << windows[k - 1].second
        << "] and [" << windows[k].first << ", " << windows[k].second << "]";
  std::cout << "concurrent_submit: " << waited << " of " << kJudges << " judges waited for the GPU" << std::endl;

  auto lb = judge::testing::run_command({cli, "--json", "leaderboard", "vector_add"}, env, 60);
  json board = judge::testing::json_of(lb.output);
  ASSERT_FALSE(board.is_discarded()) << lb.output;
  std::set<std::string> users;
  std::size_t rows = 0;
  for (const auto& view : board["leaderboards"])
    for (const auto& row : view["ranking"]) {
      users.insert(row.value("user", ""));
      ++rows;
    }
  EXPECT_EQ(rows, static_cast<std::size_t>(kJudges)) << board.dump(2);
  for (int k = 0; k < kJudges; ++k) EXPECT_EQ(users.count("user" + std::to_string(k)), 1u) << board.dump(2);
}

}  // namespace
