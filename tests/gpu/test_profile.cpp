// `judge profile` on a real GPU under the real Nsight Compute: the naive vector add launches one kernel inside
// solve(), so exactly one is reported (none of the judge's own generator, reference or check kernels), with figures
// a memory-bound kernel can have, and the .ncu-rep is kept. Skipped without a GPU or without ncu
// (JUDGE_TEST_NCU names it); a machine whose driver keeps the performance counters to root is reported as skipped
// too, with the judge's explanation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::testing::TempDir;
using nlohmann::json;

std::string test_ncu() {
  const char* env = std::getenv("JUDGE_TEST_NCU");
  std::string ncu = env && *env ? env : "";
  for (const char* candidate : {"/usr/local/cuda/bin/ncu", "/usr/bin/ncu"})
    if (ncu.empty() && fs::exists(candidate)) ncu = candidate;
  return ncu;
}

TEST(Profile, NaiveVectorAddIsOneMemoryBoundKernel) {
  JUDGE_REQUIRE_GPU();
  std::string ncu = test_ncu();
  if (ncu.empty()) GTEST_SKIP() << "Nsight Compute (ncu) is not installed here (JUDGE_TEST_NCU names it)";
  TempDir tmp;
  fs::path report = tmp / "vector_add.ncu-rep";
  auto r = judge::testing::run_command(
      {judge::testing::cli_path().string(), "--json", "profile", "vector_add",
       (judge::testing::source_dir() / "submissions" / "vector_add" / "1_naive.cu").string(), "-o", report.string()},
      {{"JUDGE_CACHE_DIR", (tmp / "cache").string()}, {"JUDGE_NCU", ncu}}, 900);
  json j = judge::testing::json_of(r.output);
  ASSERT_FALSE(j.is_discarded()) << r.output.substr(0, 4000);
  if (r.exit_code == 2 && j.value("error", "").find("ERR_NVGPUCTRPERM") != std::string::npos)
    GTEST_SKIP() << j.value("error", "");
  ASSERT_EQ(r.exit_code, 0) << j.dump(2).substr(0, 4000);

  EXPECT_EQ(j.value("verdict", ""), "accepted");
  EXPECT_EQ(j.value("case", ""), "N_25000000") << "the first benchmark is the default case";
  ASSERT_EQ(j.at("kernels").size(), 1u) << "only solve()'s kernel, none of the judge's:\n" << j.dump(2);
  const json& k = j["kernels"][0];
  EXPECT_NE(k.value("name", "").find("vector_add"), std::string::npos) << k.dump(2);
  ASSERT_TRUE(k.at("duration_ns").is_number()) << k.dump(2);
  EXPECT_GT(k["duration_ns"].get<double>(), 0);
  ASSERT_TRUE(k.at("dram_throughput_pct").is_number()) << k.dump(2);
  EXPECT_GT(k["dram_throughput_pct"].get<double>(), 0);
  EXPECT_LE(k["dram_throughput_pct"].get<double>(), 100);
  ASSERT_TRUE(k.at("sm_throughput_pct").is_number()) << k.dump(2);
  EXPECT_GE(k["sm_throughput_pct"].get<double>(), 0);
  EXPECT_LE(k["sm_throughput_pct"].get<double>(), 100);
  EXPECT_EQ(k.at("block_size"), 256.0) << k.dump(2);
  EXPECT_EQ(k.at("grid_size"), 97657.0) << "(25000000 + 255) / 256 blocks: " << k.dump(2);
  EXPECT_GT(k.at("registers_per_thread").get<double>(), 0) << k.dump(2);
  EXPECT_GT(k.at("achieved_occupancy_pct").get<double>(), 0) << k.dump(2);
  EXPECT_FALSE(k.at("top_stalls").empty()) << k.dump(2);
  EXPECT_EQ(k.value("limiter", ""), "memory") << "25M-element vector add reads and writes 300 MB: " << k.dump(2);

  EXPECT_EQ(fs::path(j.value("report", "")), report);
  EXPECT_TRUE(fs::exists(report)) << report;
}

}  // namespace
