// `judge ladder vector_add` as a user runs it, on the GPU: every rung of submissions/vector_add judged in order and
// accepted with the kernels it launched and their resources, the speedups consistent with the medians they come from, nothing recorded on the leaderboard, and the
// chart written as a standalone SVG file with a bar per rung and case.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judge/core/run/ladder_rungs.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using nlohmann::json;

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

// b / a, checked against what the ladder says it is (null when either is unknown).
void expect_ratio(const json& said, double a, double b, const std::string& what) {
  ASSERT_TRUE(said.is_number()) << what << ": " << said.dump();
  EXPECT_NEAR(said.get<double>(), b / a, 1e-9 * (b / a)) << what;
}

TEST(Ladder, VectorAddEveryRungAcceptedConsistentAndCharted) {
  JUDGE_REQUIRE_GPU();
  TempDir tmp;
  const fs::path db = tmp / "db.sqlite", chart = tmp / "ladder.svg";
  const std::map<std::string, std::string> env = {{"JUDGE_CACHE_DIR", (tmp / "cache").string()},
                                                  {"JUDGE_DB", db.string()},
                                                  {"JUDGE_CALIBRATION", judge::testing::shared_calibration_file()}};
  auto r = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "ladder", "vector_add",
                                        "--budget", "0.2", "--min-samples", "5", "--chart", chart.string()},
                                       env, 900);
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 8000);
  // stderr shares the captured output: lines saying whom the judge waited for the GPU, then the JSON document.
  const json j = judge::testing::json_of(r.output);
  ASSERT_FALSE(j.is_discarded()) << r.output.substr(0, 8000);

  const auto files = judge::find_rungs(judge::testing::source_dir() / "submissions" / "vector_add");
  const json& rungs = j.at("rungs");
  ASSERT_EQ(rungs.size(), files.size()) << j.dump(2);
  EXPECT_EQ(j.at("challenge"), "vector_add");
  EXPECT_EQ(j.at("all_accepted"), true) << j.dump(2);
  EXPECT_EQ(j.at("bound"), "memory") << "vector_add moves 12 bytes per flop";
  EXPECT_EQ(j.at("unit"), "GB/s");
  ASSERT_TRUE(j.at("ceiling").is_object()) << "calibrated: the copy bandwidth is the ceiling";
  EXPECT_EQ(j["ceiling"].at("name"), "copy bandwidth");
  EXPECT_EQ(j.at("first"), files.front().stem().string());

  const std::size_t cases = j.at("cases").size();
  ASSERT_GT(cases, 0u);
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    const json& rung = rungs[i];
    SCOPED_TRACE(rung.value("rung", "?"));
    EXPECT_EQ(rung.at("rung"), files[i].stem().string()) << "in the order of their numbers";
    EXPECT_EQ(rung.at("verdict"), "accepted") << rung.value("message", "");
    EXPECT_FALSE(rung.at("idea").get<std::string>().empty()) << "every example opens with its idea";
    // The kernels it launched, with the resources the occupancy lesson needs, sharing the kernels' time.
    ASSERT_FALSE(rung.at("kernels").empty()) << rung.dump(2);
    double time_percent = 0;
    for (const auto& k : rung.at("kernels")) {
      EXPECT_GT(k.at("registers").get<int>(), 0) << k.dump();
      EXPECT_GT(k.at("block_threads").get<int>(), 0) << k.dump();
      EXPECT_GT(k.at("occupancy").at("percent").get<double>(), 0) << k.dump();
      EXPECT_TRUE(k.contains("ptxas")) << "the rung's own kernels are in its build's ptxas report: " << k.dump();
      time_percent += k.at("time_percent").get<double>();
    }
    EXPECT_NEAR(time_percent, 100.0, 0.5);
    ASSERT_EQ(rung.at("cases").size(), cases);
    EXPECT_EQ(rung.at("previous"), i == 0 ? json(nullptr) : rungs[i - 1].at("rung"));
    for (std::size_t k = 0; k < cases; ++k) {
      const json& c = rung["cases"][k];
      SCOPED_TRACE(c.value("name", "?"));
      const double median = c.at("median_ms").get<double>();
      ASSERT_GT(median, 0);
      EXPECT_GT(c.at("rate").get<double>(), 0);
      EXPECT_GT(c.at("sol_percent").get<double>(), 0);
      EXPECT_LT(c.at("sol_percent").get<double>(), 100 / 0.8) << "faster than the floor is rejected as suspicious";
      // Each speedup is the ratio of the medians it names.
      expect_ratio(c.at("vs_first"), median, rungs[0]["cases"][k].at("median_ms").get<double>(), "x first");
      if (i == 0)
        EXPECT_TRUE(c.at("vs_previous").is_null());
      else
        expect_ratio(c.at("vs_previous"), median, rungs[i - 1]["cases"][k].at("median_ms").get<double>(), "x prev");
      expect_ratio(c.at("vs_reference"), median, c.at("reference_ms").get<double>(), "x ref");
      // Rates scale inversely with the medians: the same bytes moved by every rung.
      const double rate_ratio = c.at("rate").get<double>() / rungs[0]["cases"][k].at("rate").get<double>();
      EXPECT_NEAR(rate_ratio, c.at("vs_first").get<double>(), 1e-9 * rate_ratio);
    }
  }

  EXPECT_FALSE(fs::exists(db)) << "a ladder is never recorded on the leaderboard";

  EXPECT_EQ(j.at("chart"), chart.string());
  ASSERT_TRUE(fs::exists(chart));
  const std::string svg = judge::testing::read_file(chart);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << svg.substr(0, 200);
  EXPECT_NE(svg.find("viewBox=\""), std::string::npos);
  EXPECT_EQ(count(svg, "<rect class=\"bar\""), rungs.size() * cases) << svg;
  EXPECT_EQ(count(svg, "class=\"ceiling\""), 1u);
  for (const auto& f : files) EXPECT_NE(svg.find(">" + f.stem().string() + "</text>"), std::string::npos);
  EXPECT_EQ(svg.back(), '\n');
  EXPECT_NE(svg.rfind("</svg>"), std::string::npos);
}

}  // namespace
