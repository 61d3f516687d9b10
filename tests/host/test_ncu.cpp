// The Nsight Compute component without a GPU: which ncu is found, the command lines the judge builds, the reading
// of `ncu --import --csv --page raw` and the telling apart of ncu's failures. The CSV samples are written here in
// the raw page's layout (a header of fixed columns then metric names, a row of units, a row per kernel, every field
// quoted, thousands separated by commas) with the metric names of Nsight Compute's section files; the log lines are
// ncu's own wording.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/base/error.hpp"
#include "judge/core/run/ncu.hpp"
#include "judge/core/run/profile.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using judge::KernelProfile;
using judge::testing::TempDir;
using judge::testing::write_file;

// Two kernels, as `--print-units base` prints them, after a warning line. The first is a template instance (commas
// inside its quoted name); the second lacks two metrics ("n/a", and an empty field).
const char* kTwoKernels =
    R"csv(==WARNING== Found outstanding GPU clock reset, trying to revert...Success.
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__throughput.avg.pct_of_peak_sustained_elapsed","gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed","gpu__time_duration.sum","launch__block_size","launch__grid_size","launch__registers_per_thread","launch__shared_mem_per_block_dynamic","launch__shared_mem_per_block_static","lts__t_sector_hit_rate.pct","sm__maximum_warps_per_active_cycle_pct","sm__throughput.avg.pct_of_peak_sustained_elapsed","sm__warps_active.avg.pct_of_peak_sustained_active","smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio","smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio","smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio","smsp__average_warps_issue_stalled_selected_per_issue_active.ratio","smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio","smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"
"","","","","","","","","","","","%","%","nsecond","","","register/thread","byte","byte","%","%","%","%","","","","","",""
"0","4242","judge-worker","gpu-box","void reduce_block<float, 256>(const float *, float *, int)","1","7","(256, 1, 1)","(65536, 1, 1)","0","9.0","87.5","88.1","1,234,567","256","65,536","32","0","1,024","12.5","100","21.3","91.2","2","20","0.5","1","1.5","3"
"1","4242","judge-worker","gpu-box","finish(float *)","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","0.05","1.2","3,200","32","1","16","0","0","n/a","","0.4","3.1","0","1.5","0","0.5","0","0.25"
)csv";

// A newer release's names (gpu__dram_throughput in SpeedOfLight) with automatic units, stall reasons from PC
// sampling only, and CRLF line ends.
const char* kNewerRelease =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed\","
    "\"gpu__time_duration.sum\",\"launch__shared_mem_per_block_dynamic\",\"sm__throughput.avg.pct_of_peak_sustained_"
    "elapsed\",\"smsp__pcsamp_warps_issue_stalled_long_scoreboard\",\"smsp__pcsamp_warps_issue_stalled_long_"
    "scoreboard_not_issued\",\"smsp__pcsamp_warps_issue_stalled_math_pipe_throttle\",\"smsp__pcsamp_warps_issue_"
    "stalled_selected\"\r\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"%\",\"usecond\",\"Kbyte\",\"%\",\"\",\"\",\"\",\"\"\r\n"
    "\"0\",\"1\",\"judge-worker\",\"h\",\"sgemm(const float *, const float *, float *, int, int, int)\",\"1\",\"7\","
    "\"(16, 16, 1)\",\"(64, 64, 1)\",\"0\",\"8.9\",\"12.5\",\"2.5\",\"16.38\",\"82\",\"300\",\"120\",\"600\",\"100\"\r\n";

KernelProfile first_of(const std::string& csv) {
  auto kernels = judge::parse_ncu_raw_csv(csv);
  EXPECT_FALSE(kernels.empty());
  return kernels.empty() ? KernelProfile{} : kernels.front();
}

// ---- reading the raw page -------------------------------------------------------------------------------------------

TEST(NcuCsv, TwoKernelsEachWithItsFigures) {
  auto kernels = judge::parse_ncu_raw_csv(kTwoKernels);
  ASSERT_EQ(kernels.size(), 2u);
  const KernelProfile& k = kernels[0];
  EXPECT_EQ(k.id, 0);
  EXPECT_EQ(k.name, "void reduce_block<float, 256>(const float *, float *, int)");
  EXPECT_EQ(k.block_dims, "(256, 1, 1)");
  EXPECT_EQ(k.grid_dims, "(65536, 1, 1)");
  EXPECT_EQ(k.duration_ns, 1234567.0);  // thousands separators read
  EXPECT_EQ(k.dram_pct, 87.5);
  EXPECT_EQ(k.memory_pct, 88.1);
  EXPECT_EQ(k.sm_pct, 21.3);
  EXPECT_EQ(k.achieved_occupancy_pct, 91.2);
  EXPECT_EQ(k.theoretical_occupancy_pct, 100.0);
  EXPECT_EQ(k.l2_hit_pct, 12.5);
  EXPECT_EQ(k.registers_per_thread, 32.0);
  EXPECT_EQ(k.block_size, 256.0);
  EXPECT_EQ(k.grid_size, 65536.0);
  EXPECT_EQ(k.shared_static_bytes, 1024.0);
  EXPECT_EQ(k.shared_dynamic_bytes, 0.0);
  EXPECT_EQ(kernels[1].id, 1);
  EXPECT_EQ(kernels[1].name, "finish(float *)");
  EXPECT_EQ(kernels[1].duration_ns, 3200.0);
}

TEST(NcuCsv, AMissingMetricIsAbsentNotZero) {
  auto kernels = judge::parse_ncu_raw_csv(kTwoKernels);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_FALSE(kernels[1].l2_hit_pct.has_value());                 // "n/a"
  EXPECT_FALSE(kernels[1].theoretical_occupancy_pct.has_value());  // ""
  EXPECT_EQ(kernels[1].achieved_occupancy_pct, 3.1);
  // and a metric whose column is not there at all
  KernelProfile newer = first_of(kNewerRelease);
  EXPECT_FALSE(newer.l2_hit_pct.has_value());
  EXPECT_FALSE(newer.registers_per_thread.has_value());
  auto j = judge::to_json(newer);
  EXPECT_TRUE(j["l2_hit_rate_pct"].is_null());
  EXPECT_EQ(j["dram_throughput_pct"], 12.5);
}

TEST(NcuCsv, TopStallsLargestFirstWithoutSelected) {
  KernelProfile k = first_of(kTwoKernels);
  ASSERT_EQ(k.top_stalls.size(), 3u);
  EXPECT_EQ(k.top_stalls[0].reason, "long_scoreboard");
  EXPECT_EQ(k.top_stalls[0].cycles, 20.0);
  EXPECT_NEAR(k.top_stalls[0].share_pct, 100.0 * 20 / 28, 1e-9);  // of all warp states, "selected" included
  EXPECT_EQ(k.top_stalls[1].reason, "wait");
  EXPECT_EQ(k.top_stalls[2].reason, "barrier");
  for (const auto& s : k.top_stalls) EXPECT_NE(s.reason, "selected");
  // a kernel with fewer stalled states than three lists only those
  auto kernels = judge::parse_ncu_raw_csv(kTwoKernels);
  ASSERT_EQ(kernels[1].top_stalls.size(), 2u);
  EXPECT_EQ(kernels[1].top_stalls[0].reason, "long_scoreboard");
  EXPECT_EQ(kernels[1].top_stalls[1].reason, "wait");
}

TEST(NcuCsv, NewerNamesAutomaticUnitsAndSampledStalls) {
  KernelProfile k = first_of(kNewerRelease);
  EXPECT_EQ(k.name, "sgemm(const float *, const float *, float *, int, int, int)");
  EXPECT_EQ(k.dram_pct, 12.5);                  // gpu__dram_throughput
  EXPECT_EQ(k.duration_ns, 2500.0);             // 2.5 usecond
  ASSERT_TRUE(k.shared_dynamic_bytes.has_value());
  EXPECT_NEAR(*k.shared_dynamic_bytes, 16380.0, 1e-6);  // 16.38 Kbyte
  ASSERT_EQ(k.top_stalls.size(), 2u);           // _not_issued is a subset of its state, selected is no stall
  EXPECT_EQ(k.top_stalls[0].reason, "math_pipe_throttle");
  EXPECT_NEAR(k.top_stalls[0].share_pct, 60.0, 1e-9);
  EXPECT_EQ(k.top_stalls[1].reason, "long_scoreboard");
}

TEST(NcuCsv, QuotedFieldsKeepCommasQuotesAndLineBreaks) {
  std::string csv = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"nsecond\"\n"
                    "\"3\",\"void k<int, 4>(float*, \"\"x\"\")\",\"10\"\n"
                    "\"4\",\"two\nlines\",\"20\"\n";
  auto kernels = judge::parse_ncu_raw_csv(csv);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].id, 3);
  EXPECT_EQ(kernels[0].name, "void k<int, 4>(float*, \"x\")");
  EXPECT_EQ(kernels[0].duration_ns, 10.0);
  EXPECT_EQ(kernels[1].name, "two\nlines");
  EXPECT_EQ(kernels[1].duration_ns, 20.0);
}

TEST(NcuCsv, NoTableIsAnErrorQuotingWhatNcuPrinted) {
  try {
    judge::parse_ncu_raw_csv("==ERROR== Failed to open report file\n");
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Failed to open report file"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(judge::parse_ncu_raw_csv("\"ID\",\"Kernel Name\"\n\"\",\"\"\n").empty());  // a table, no kernels
}

TEST(NcuCsv, Limiter) {
  KernelProfile k;
  EXPECT_EQ(judge::limiter(k), "");  // nothing measured, nothing said
  k.dram_pct = 90;
  k.sm_pct = 20;
  EXPECT_EQ(judge::limiter(k), "memory");
  k.memory_pct = 30;  // the busiest memory unit wins over DRAM alone
  EXPECT_EQ(judge::limiter(k), "latency");
  k.sm_pct = 75;
  EXPECT_EQ(judge::limiter(k), "compute");
  EXPECT_EQ(judge::to_json(k)["limiter"], "compute");
}

TEST(NcuCsv, StallsAreDescribed) {
  EXPECT_EQ(judge::describe_stall("long_scoreboard"), "long scoreboard: waiting for global or local memory (L1TEX)");
  EXPECT_EQ(judge::describe_stall("some_new_reason"), "some new reason");
}

// ---- command lines --------------------------------------------------------------------------------------------------

bool has_pair(const std::vector<std::string>& argv, const std::string& flag, const std::string& value) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == flag && argv[i + 1] == value) return true;
  return false;
}

TEST(NcuCommand, ProfilePrefixFiltersOnTheSolveRangeAndExports) {
  judge::NcuProfileRequest r{"/opt/ncu/ncu", "/tmp/out/vector_add-N_1.ncu-rep", "/tmp/jobs/p.ncu.log", 7};
  auto argv = judge::ncu_profile_prefix(r);
  ASSERT_FALSE(argv.empty());
  EXPECT_EQ(argv[0], "/opt/ncu/ncu");
  EXPECT_TRUE(has_pair(argv, "--target-processes", "all"));
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--nvtx"), argv.end());
  // the worker's range: domain "judge", push/pop range "solve" (the trailing '/')
  EXPECT_TRUE(has_pair(argv, "--nvtx-include", std::string(judge::kNvtxDomain) + "@" + judge::kNvtxSolveRange + "/"));
  EXPECT_TRUE(has_pair(argv, "--nvtx-include", "judge@solve/"));
  EXPECT_TRUE(has_pair(argv, "--launch-count", "7"));
  for (const char* section : {"SpeedOfLight", "Occupancy", "LaunchStats", "MemoryWorkloadAnalysis", "WarpStateStats"})
    EXPECT_TRUE(has_pair(argv, "--section", section)) << section;
  EXPECT_TRUE(has_pair(argv, "--export", "/tmp/out/vector_add-N_1.ncu-rep"));
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--force-overwrite"), argv.end());
  EXPECT_TRUE(has_pair(argv, "--log-file", "/tmp/jobs/p.ncu.log"));
  // the worker's own argv follows: nothing may expect a value after the last option
  EXPECT_EQ(argv[argv.size() - 2], "--log-file");
}

TEST(NcuCommand, ImportPrintsTheRawPageInBaseUnits) {
  EXPECT_EQ(judge::ncu_import_command("ncu", "/r/x.ncu-rep"),
            (std::vector<std::string>{"ncu", "--import", "/r/x.ncu-rep", "--csv", "--page", "raw", "--print-units",
                                      "base"}));
}

TEST(NcuCommand, ReportPath) {
  fs::path d = judge::profile_report_path("", "vector_add", "N_25000000");
  EXPECT_TRUE(d.is_absolute());
  EXPECT_EQ(d.filename(), "vector_add-N_25000000.ncu-rep");
  EXPECT_EQ(d.parent_path(), fs::current_path());
  EXPECT_EQ(judge::profile_report_path("/x/mine", "a", "b"), fs::path("/x/mine.ncu-rep"));  // as ncu would name it
  EXPECT_EQ(judge::profile_report_path("/x/mine.ncu-rep", "a", "b"), fs::path("/x/mine.ncu-rep"));
}

TEST(NcuCommand, DefaultCaseIsTheFirstBenchmarkElseTheFirstTest) {
  judge::Challenge c;
  c.id = "x";
  c.tests.push_back({"t1", "", {}, {}, std::nullopt});
  EXPECT_EQ(judge::default_profile_case(c), "t1");
  c.benchmarks.push_back({"big", "", {}, {}, std::nullopt});
  c.benchmarks.push_back({"bigger", "", {}, {}, std::nullopt});
  EXPECT_EQ(judge::default_profile_case(c), "big");
  EXPECT_THROW(judge::default_profile_case(judge::Challenge{}), judge::Error);
}

// ---- ncu's failures -------------------------------------------------------------------------------------------------

// ncu's log when the driver keeps the counters to administrators (the application itself runs on).
const char* kPermissionLog = R"log(==PROF== Connected to process 81234 (/opt/judge/bin/judge-worker)
==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0. For instructions on enabling permissions and to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM
==PROF== Disconnected from process 81234
==WARNING== No kernels were profiled.
)log";

const char* kGoodLog = R"log(==PROF== Connected to process 81234 (/opt/judge/bin/judge-worker)
==PROF== Profiling "vector_add" - 0: 0%....50%....100% - 40 passes
==PROF== Disconnected from process 81234
==PROF== Report: /home/u/vector_add-N_25000000.ncu-rep
)log";

TEST(NcuLog, PermissionDenied) {
  judge::NcuLog log = judge::read_ncu_log(kPermissionLog);
  EXPECT_TRUE(log.no_permission);
  ASSERT_EQ(log.errors.size(), 1u);
  EXPECT_EQ(log.errors[0].rfind("ERR_NVGPUCTRPERM - The user does not have permission", 0), 0u) << log.errors[0];
  std::string message = judge::ncu_permission_message();
  for (const char* needed : {"ERR_NVGPUCTRPERM", "root", "NVreg_RestrictProfilingToAdminUsers=0",
                             "https://developer.nvidia.com/ERR_NVGPUCTRPERM"})
    EXPECT_NE(message.find(needed), std::string::npos) << needed;
}

TEST(NcuLog, NoKernelsAndOtherErrors) {
  judge::NcuLog none = judge::read_ncu_log("==PROF== Disconnected from process 1\n==WARNING== No kernels were profiled.\n");
  EXPECT_TRUE(none.no_kernels);
  EXPECT_FALSE(none.no_permission);
  EXPECT_TRUE(none.errors.empty());
  judge::NcuLog bad = judge::read_ncu_log("==ERROR== unrecognised option '--nvtx-include'\r\n");
  EXPECT_FALSE(bad.no_permission);
  EXPECT_EQ(bad.errors, std::vector<std::string>{"unrecognised option '--nvtx-include'"});
  judge::NcuLog good = judge::read_ncu_log(kGoodLog);
  EXPECT_FALSE(good.no_permission);
  EXPECT_FALSE(good.no_kernels);
  EXPECT_TRUE(good.errors.empty());
}

// ---- finding ncu ----------------------------------------------------------------------------------------------------

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

fs::path fake_tool(const TempDir& dir, const std::string& name) {
  fs::path p = dir / name;
  write_file(p, "#!/bin/sh\nexit 0\n");
  fs::permissions(p, fs::perms::owner_all);
  return p;
}

TEST(NcuFind, NoneFoundSaysHowToInstallOrPointAtIt) {
  TempDir dir;
  write_file(dir / "ncu", "not executable");
  try {
    judge::find_ncu({dir / "missing" / "ncu", dir / "ncu"});
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    std::string m = e.what();
    for (const char* needed : {"Nsight Compute", "install", "PATH", "JUDGE_NCU"})
      EXPECT_NE(m.find(needed), std::string::npos) << needed << " in: " << m;
  }
}

TEST(NcuFind, FirstExecutableCandidate) {
  TempDir dir;
  fs::path second = fake_tool(dir, "ncu");
  EXPECT_EQ(judge::find_ncu({dir / "nowhere" / "ncu", second}), second.string());
}

TEST(NcuFind, TheEnvironmentWinsAndIsChecked) {
  TempDir dir;
  fs::path tool = fake_tool(dir, "my-ncu");
  {
    ScopedEnv env("JUDGE_NCU", tool.string());
    EXPECT_EQ(judge::find_ncu(), tool.string());
  }
  ScopedEnv env("JUDGE_NCU", (dir / "absent").string());
  try {
    judge::find_ncu();
    FAIL() << "expected an error";
  } catch (const judge::Error& e) {
    EXPECT_NE(std::string(e.what()).find("JUDGE_NCU is set to " + (dir / "absent").string()), std::string::npos)
        << e.what();
  }
}

TEST(NcuFind, LooksOnPathFirst) {
  TempDir dir;
  fs::path tool = fake_tool(dir, "ncu");
  ScopedEnv no_override("JUDGE_NCU", std::nullopt);
  ScopedEnv path("PATH", (dir / "empty").string() + ":" + dir.path().string());
  auto candidates = judge::ncu_candidates();
  ASSERT_GE(candidates.size(), 2u);
  EXPECT_EQ(candidates[0], dir / "empty" / "ncu");
  EXPECT_EQ(candidates[1], tool);
  EXPECT_EQ(judge::find_ncu(), tool.string());
}

}  // namespace
