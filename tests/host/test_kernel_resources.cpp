// Kernel resources without a GPU: ptxas's -v report parsed and kept out of the diagnostics, theoretical occupancy
// checked against hand-worked H100 figures (the occupancy lesson's arithmetic), CUPTI's kernel records merged over
// benchmark cases with ptxas's spills and each kernel's share of the time, demangled names, the table and its
// notes, and the JSON round trip of what the worker sends.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "judge/core/build/ptxas_report.hpp"
#include "judge/core/measure/kernel_resources.hpp"
#include "judge/core/measure/occupancy.hpp"
#include "judge/core/present/kernel_table.hpp"
#include "support/h100_limits.hpp"

namespace {

using judge::BlockResources;
using judge::CaseResult;
using judge::KernelLaunch;
using judge::Occupancy;
using judge::SmLimits;

// What nvcc 13 printed for a file with a template kernel, an extern "C" kernel, a kernel that spills and a device
// function that was not inlined, interleaved with a warning that must stay a diagnostic.
const char* kNvccOutput =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z2tkILi3EEvPf' for 'sm_90a'\n"
    "ptxas info    : Function properties for _Z2tkILi3EEvPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 10.703 ms\n"
    "solve.cu(12): warning #177-D: variable \"unused\" was declared but never referenced\n"
    "ptxas info    : Compiling entry function 'ck' for 'sm_90a'\n"
    "ptxas info    : Function properties for ck\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, used 1 barriers, 4224 bytes smem\n"
    "ptxas info    : Compiling entry function '_Z5heavyPKfPfi' for 'sm_90a'\n"
    "ptxas info    : Function properties for _Z5heavyPKfPfi\n"
    "    424 bytes stack frame, 772 bytes spill stores, 776 bytes spill loads\n"
    "ptxas info    : Used 64 registers, used 0 barriers, 424 bytes cumulative stack size, 372 bytes cmem[0]\n"
    "ptxas info    : Function properties for _Z3fooPfi\n"
    "    96 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas warning : Registers are spilled to local memory in function '_Z5heavyPKfPfi'\n";

TEST(PtxasReport, ParsesEveryEntryFunctionWithItsFrame) {
  auto k = judge::parse_ptxas_report(kNvccOutput);
  ASSERT_EQ(k.size(), 3u) << "entry functions only: foo is a device function";
  EXPECT_EQ(k[0].name, "_Z2tkILi3EEvPf");
  EXPECT_EQ(k[0].arch, "sm_90a");
  EXPECT_EQ(k[0].registers, 8);
  EXPECT_EQ(k[0].barriers, 0);
  EXPECT_FALSE(k[0].spills());
  EXPECT_EQ(k[1].name, "ck");
  EXPECT_EQ(k[1].registers, 12);
  EXPECT_EQ(k[1].barriers, 1);
  EXPECT_EQ(k[1].shared_bytes, 4224);
  EXPECT_EQ(k[2].name, "_Z5heavyPKfPfi");
  EXPECT_EQ(k[2].registers, 64);
  EXPECT_EQ(k[2].stack_frame_bytes, 424);
  EXPECT_EQ(k[2].spill_store_bytes, 772);
  EXPECT_EQ(k[2].spill_load_bytes, 776);
  EXPECT_TRUE(k[2].spills());
  EXPECT_EQ(k[2].shared_bytes, 0) << "cmem is constant memory, not shared";
}

TEST(PtxasReport, OlderFormatWithoutBarriersAndEmptyInput) {
  auto k = judge::parse_ptxas_report(
      "ptxas info    : Compiling entry function '_Z3addPKfS0_Pfi' for 'sm_80'\n"
      "ptxas info    : Function properties for _Z3addPKfS0_Pfi\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 10 registers, 380 bytes cmem[0]\n");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].registers, 10);
  EXPECT_EQ(k[0].barriers, -1) << "not reported";
  EXPECT_TRUE(judge::parse_ptxas_report("").empty());
  EXPECT_TRUE(judge::parse_ptxas_report("solve.cu(3): error: identifier \"x\" is undefined\n").empty());
}

TEST(PtxasReport, SplitKeepsDiagnosticsInOrderAndTakesOnlyPtxasInfo) {
  auto out = judge::split_ptxas_report(kNvccOutput);
  EXPECT_EQ(out.diagnostics,
            "solve.cu(12): warning #177-D: variable \"unused\" was declared but never referenced\n"
            "ptxas warning : Registers are spilled to local memory in function '_Z5heavyPKfPfi'\n")
      << "ptxas warnings are warnings: they stay";
  EXPECT_EQ(out.ptxas.find("warning"), std::string::npos);
  EXPECT_EQ(judge::parse_ptxas_report(out.ptxas).size(), 3u) << "the split-off part parses the same";
  // A "stack frame" line that does not follow a properties line is not ptxas's.
  auto odd = judge::split_ptxas_report("my note: 4 bytes stack frame\n");
  EXPECT_EQ(odd.diagnostics, "my note: 4 bytes stack frame\n");
  EXPECT_EQ(odd.ptxas, "");
  // No trailing newline: nothing added, nothing lost.
  EXPECT_EQ(judge::split_ptxas_report("error: x").diagnostics, "error: x");
}

TEST(PtxasReport, FindPrefersTheArchitectureAsked) {
  std::string two = std::string(kNvccOutput) +
                    "ptxas info    : Compiling entry function 'ck' for 'sm_80'\n"
                    "ptxas info    : Used 20 registers, used 1 barriers\n";
  auto k = judge::parse_ptxas_report(two);
  ASSERT_NE(judge::find_ptxas_kernel(k, "ck", "sm_80"), nullptr);
  EXPECT_EQ(judge::find_ptxas_kernel(k, "ck", "sm_80")->registers, 20);
  EXPECT_EQ(judge::find_ptxas_kernel(k, "ck", "sm_90a")->registers, 12);
  EXPECT_EQ(judge::find_ptxas_kernel(k, "ck", "sm_90")->registers, 12) << "no exact match: the first";
  EXPECT_EQ(judge::find_ptxas_kernel(k, "cublas_kernel", "sm_90"), nullptr);
}

// An H100 SXM as cudaGetDeviceProperties reports it.
SmLimits h100() { return judge::testing::h100_sm_limits(); }

Occupancy occupancy(int threads, int regs, std::int64_t static_smem = 0, std::int64_t dynamic_smem = 0) {
  BlockResources b;
  b.threads = threads;
  b.registers_per_thread = regs;
  b.static_smem = static_smem;
  b.dynamic_smem = dynamic_smem;
  return judge::theoretical_occupancy(h100(), b);
}

TEST(Occupancy, RegistersBoundTheRegisterBlockedGemm) {
  // 128 registers x 32 lanes = 4096 per warp: 65536 / 4096 = 16 warps = 2 blocks of 256 threads.
  Occupancy o = occupancy(256, 128);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.warps_per_sm, 16);
  EXPECT_EQ(o.max_warps_per_sm, 64);
  EXPECT_DOUBLE_EQ(o.percent(), 25.0);
  EXPECT_EQ(o.limited_by, "registers");
  EXPECT_TRUE(o.error.empty());
  // 255 registers are allocated as 256 per thread (8192 per warp): 8 warps, one block of 256.
  EXPECT_EQ(occupancy(256, 255).blocks_per_sm, 1);
  // 1024 threads of 64 registers use the whole register file: one block, half the warps.
  Occupancy big = occupancy(1024, 64);
  EXPECT_EQ(big.blocks_per_sm, 1);
  EXPECT_DOUBLE_EQ(big.percent(), 50.0);
  EXPECT_EQ(big.limited_by, "registers");
}

TEST(Occupancy, SharedMemoryCountsTheDriversReservedKilobyte) {
  // 100 KiB + 1 KiB reserved per block: two fit in 228 KiB, not three.
  Occupancy o = occupancy(128, 32, 0, 100 << 10);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.warps_per_sm, 8);
  EXPECT_EQ(o.limited_by, "shared memory");
  // 113 KiB each: 2 x (113 + 1) = 228 KiB exactly fits; 114 KiB does not.
  EXPECT_EQ(occupancy(128, 32, 0, 113 << 10).blocks_per_sm, 2);
  EXPECT_EQ(occupancy(128, 32, 0, 114 << 10).blocks_per_sm, 1);
  // Static and dynamic add up.
  EXPECT_EQ(occupancy(128, 32, 60 << 10, 53 << 10).blocks_per_sm, 2);
}

TEST(Occupancy, SmallBlocksHitTheBlockLimitAndFullBlocksTheWarpLimit) {
  Occupancy tiny = occupancy(32, 16);
  EXPECT_EQ(tiny.blocks_per_sm, 32);
  EXPECT_DOUBLE_EQ(tiny.percent(), 50.0);
  EXPECT_EQ(tiny.limited_by, "blocks per SM");
  Occupancy full = occupancy(256, 16);
  EXPECT_EQ(full.blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(full.percent(), 100.0);
  EXPECT_NE(full.limited_by.find("warps"), std::string::npos) << full.limited_by;
  // A block that is not a whole number of warps still takes whole warps: 48 threads are 2 warps.
  EXPECT_EQ(occupancy(48, 16).warps_per_sm, 2 * occupancy(48, 16).blocks_per_sm);
}

TEST(Occupancy, ImpossibleBlocksAndUnknownGpusSayWhy) {
  Occupancy too_big = occupancy(2048, 16);
  EXPECT_EQ(too_big.blocks_per_sm, 0);
  EXPECT_FALSE(too_big.error.empty());
  Occupancy no_smem = occupancy(128, 32, 0, 300 << 10);
  EXPECT_EQ(no_smem.blocks_per_sm, 0);
  EXPECT_FALSE(no_smem.error.empty());
  BlockResources b;
  b.threads = 256;
  b.registers_per_thread = 32;
  Occupancy unknown = judge::theoretical_occupancy(SmLimits{}, b);
  EXPECT_EQ(unknown.blocks_per_sm, 0);
  EXPECT_NE(unknown.error.find("not known"), std::string::npos) << unknown.error;
  SmLimits future = h100();
  future.cc_major = 99;
  EXPECT_NE(judge::theoretical_occupancy(future, b).error.find("99.0"), std::string::npos);
}

TEST(KernelNames, DemangledAndShortened) {
  EXPECT_EQ(judge::demangle_kernel_name("_Z4kernPfi"), "kern(float*, int)");
  EXPECT_EQ(judge::demangle_kernel_name("ck"), "ck") << "extern \"C\" kernels have no mangling";
  EXPECT_EQ(judge::demangle_kernel_name("_Zgarbage"), "_Zgarbage") << "not demangleable: as it is";
  EXPECT_EQ(judge::short_kernel_name("_Z4kernPfi"), "kern");
  EXPECT_EQ(judge::short_kernel_name("_Z2tkILi3EEvPf"), "tk<3>") << "template kernels lose `void `";
  EXPECT_EQ(judge::short_kernel_name("ck"), "ck");
  // A kernel in an anonymous namespace keeps its namespace; the parameter list still goes.
  EXPECT_EQ(judge::short_kernel_name("_ZN12_GLOBAL__N_14kernEPf"), "(anonymous namespace)::kern");
}

judge::DeviceInfo h100_device() {
  judge::DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.compute_capability = "9.0";
  d.sm = h100();
  return d;
}

KernelLaunch launch(const std::string& name, int threads, int regs, double launches, double ms,
                    std::array<int, 3> grid = {64, 1, 1}) {
  KernelLaunch k;
  k.name = name;
  k.grid = grid;
  k.block = {threads, 1, 1};
  k.registers = regs;
  k.launches_per_call = launches;
  k.gpu_ms_per_call = ms;
  return k;
}

CaseResult bench(const std::string& name, double median_ms, std::vector<KernelLaunch> kernels) {
  CaseResult c;
  c.name = name;
  c.kind = "benchmark";
  c.verdict = judge::Verdict::accepted;
  c.timing = judge::Timing{};
  c.timing->median_ms = median_ms;
  c.kernels = std::move(kernels);
  return c;
}

TEST(KernelResources, MergedOverCasesWithSpillsOccupancyAndTimeShare) {
  auto ptxas = judge::parse_ptxas_report(kNvccOutput);
  std::vector<CaseResult> cases = {
      // Tests carry no kernels; a benchmark's two grids of one kernel are one row.
      bench("small", 1.0, {launch("_Z5heavyPKfPfi", 1024, 64, 1, 0.8, {10, 1, 1}), launch("ck", 32, 12, 2, 0.1)}),
      bench("large", 3.0, {launch("_Z5heavyPKfPfi", 1024, 64, 1, 2.7, {1000, 1, 1}), launch("ck", 32, 12, 4, 0.2)}),
  };
  CaseResult test = bench("t1", 0, {});
  test.kind = "test";
  test.timing.reset();
  cases.insert(cases.begin(), test);
  judge::DeviceInfo d = h100_device();
  auto rows = judge::kernel_resources(cases, ptxas, &d);
  ASSERT_EQ(rows.size(), 2u);
  const auto& heavy = rows[0];
  EXPECT_EQ(heavy.display_name, "heavy") << "most time first";
  EXPECT_NEAR(heavy.time_percent, 100.0 * 3.5 / 3.8, 1e-9) << "of the kernels' time, not the medians'";
  EXPECT_DOUBLE_EQ(heavy.launches_per_call, 1.0);
  EXPECT_EQ(heavy.cases, (std::vector<std::string>{"small", "large"}));
  ASSERT_TRUE(heavy.ptxas.has_value());
  EXPECT_EQ(heavy.ptxas->spill_store_bytes, 772);
  EXPECT_EQ(heavy.occupancy.blocks_per_sm, 1);
  EXPECT_EQ(heavy.occupancy.limited_by, "registers");
  const auto& ck = rows[1];
  EXPECT_EQ(ck.display_name, "ck");
  EXPECT_DOUBLE_EQ(ck.launches_per_call, 3.0) << "2 per call in one case, 4 in the other";
  EXPECT_NEAR(ck.time_percent, 100.0 * 0.3 / 3.8, 1e-9);
  EXPECT_EQ(ck.occupancy.blocks_per_sm, 32);

  // A library's kernel (not in ptxas's report) has no spill figure; a GPU without limits, no occupancy.
  auto lib = judge::kernel_resources({bench("b", 1.0, {launch("sm90_xmma_gemm_f32f32", 128, 168, 1, 0.9)})}, ptxas,
                                     nullptr);
  ASSERT_EQ(lib.size(), 1u);
  EXPECT_FALSE(lib[0].ptxas.has_value());
  EXPECT_EQ(lib[0].occupancy.blocks_per_sm, 0);
  EXPECT_FALSE(lib[0].occupancy.error.empty());
  EXPECT_TRUE(judge::kernel_resources({}, ptxas, &d).empty());
}

TEST(KernelResources, ADifferentBlockSizeIsAnotherRow) {
  judge::DeviceInfo d = h100_device();
  auto rows = judge::kernel_resources(
      {bench("b", 1.0, {launch("ck", 256, 12, 1, 0.5), launch("ck", 1024, 12, 1, 0.4)})}, {}, &d);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].block_threads(), 256);
  EXPECT_EQ(rows[1].block_threads(), 1024);
}

TEST(KernelTable, ColumnsAndNotesSayWhatStandsOut) {
  auto ptxas = judge::parse_ptxas_report(kNvccOutput);
  judge::DeviceInfo d = h100_device();
  auto rows = judge::kernel_resources(
      {bench("b", 1.0, {launch("_Z5heavyPKfPfi", 1024, 64, 1, 0.9), launch("_Z2tkILi3EEvPf", 64, 8, 2, 0.05)})},
      ptxas, &d);
  auto t = judge::kernel_table(rows);
  ASSERT_EQ(t.lines.size(), 3u);
  for (const char* column : {"kernel", "time", "launches", "block", "regs", "spills", "shared mem", "local",
                             "occupancy"})
    EXPECT_NE(t.lines[0].find(column), std::string::npos) << column;
  EXPECT_NE(t.lines[1].find("heavy"), std::string::npos) << t.lines[1];
  EXPECT_NE(t.lines[1].find("95%"), std::string::npos) << "0.9 of the 0.95 ms kernels ran\n" << t.lines[1];
  EXPECT_NE(t.lines[1].find("772/776 B"), std::string::npos) << t.lines[1];
  EXPECT_NE(t.lines[1].find("50% (32/64 warps, registers)"), std::string::npos) << t.lines[1];
  EXPECT_NE(t.lines[2].find("tk<3>"), std::string::npos) << t.lines[2];
  ASSERT_FALSE(t.notes.empty());
  EXPECT_NE(t.notes[0].find("heavy spills registers"), std::string::npos) << t.notes[0];
  // tk<3> runs 5% of the time: no notes about it even if it had any.
  for (const auto& n : t.notes) EXPECT_EQ(n.find("tk<3>"), std::string::npos) << n;
  EXPECT_TRUE(judge::kernel_table({}).lines.empty());
  EXPECT_EQ(judge::format_bytes_short(0), "0 B");
  EXPECT_EQ(judge::format_bytes_short(4224), "4.1 KiB");
  EXPECT_EQ(judge::format_bytes_short(48 << 10), "48 KiB");
}

TEST(KernelResources, LaunchesAndLimitsSurviveTheWorkersJson) {
  KernelLaunch k = launch("_Z4kernPfi", 128, 40, 3, 0.25, {7, 8, 9});
  k.block = {32, 4, 1};
  k.static_smem = 4096;
  k.dynamic_smem = 65536;
  k.local_bytes = 16;
  CaseResult c = bench("b", 1.0, {k});
  nlohmann::json j = c;
  CaseResult back = j.get<CaseResult>();
  ASSERT_EQ(back.kernels.size(), 1u);
  const KernelLaunch& r = back.kernels[0];
  EXPECT_EQ(r.name, "_Z4kernPfi");
  EXPECT_EQ(r.grid, (std::array<int, 3>{7, 8, 9}));
  EXPECT_EQ(r.block, (std::array<int, 3>{32, 4, 1}));
  EXPECT_EQ(r.block_threads(), 128);
  EXPECT_EQ(r.registers, 40);
  EXPECT_EQ(r.static_smem, 4096);
  EXPECT_EQ(r.dynamic_smem, 65536);
  EXPECT_EQ(r.local_bytes, 16);
  EXPECT_DOUBLE_EQ(r.launches_per_call, 3);
  EXPECT_DOUBLE_EQ(r.gpu_ms_per_call, 0.25);

  judge::DeviceInfo d = h100_device();
  nlohmann::json dj = d;
  judge::DeviceInfo dback = dj.get<judge::DeviceInfo>();
  EXPECT_TRUE(dback.sm.known());
  EXPECT_EQ(dback.sm.smem_per_block_optin, 232448);
  EXPECT_EQ(dback.sm.reserved_smem_per_block, 1024);
  // A device stored by an older judge has no limits, and says so through occupancy rather than failing.
  dj.erase("sm_limits");
  EXPECT_FALSE(dj.get<judge::DeviceInfo>().sm.known());
  EXPECT_EQ(d.build_arch(), "sm_90a");
  d.compute_capability = "8.9";
  EXPECT_EQ(d.build_arch(), "sm_89") << "no architecture-specific variant before 9.0";
}

}  // namespace
