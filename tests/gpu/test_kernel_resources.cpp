// The kernels table on the GPU: `judge submit --json` names every kernel solve() launched while timed, with what
// CUPTI saw (block, registers, shared memory, launches per call) agreeing with what ptxas reported at build time and
// with the occupancy the SM's limits allow. The solution below is built so that each figure is known in advance:
// `add_smem` asks for 100 KB of dynamic shared memory in blocks of 128 threads, so shared memory (not warps,
// registers or the block limit) holds it to 2 blocks, 8 warps of 64 per SM on an H100 (12.5%); `noop<3>` runs twice
// per call in blocks of 64 threads, and `never_launched` is compiled but never runs, so it must not be listed.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.hpp"

namespace {

using judge::testing::TempDir;
using nlohmann::json;

const char* kTwoKernels = R"(#include <cuda_runtime.h>
constexpr int kSmemBytes = 100 * 1024;
__global__ void __launch_bounds__(128) add_smem(const float* A, const float* B, float* C, int N) {
  extern __shared__ float stage[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < N ? A[i] : 0.0f;
  __syncthreads();
  if (i < N) C[i] = stage[threadIdx.x] + B[i];
}
template <int K>
__global__ void noop(float* C, int N) {
  if (N < 0) C[0] = K;  // never true: a kernel that does nothing the compiler can see through
}
__global__ void never_launched(float* C) { C[threadIdx.x] = 1.0f; }
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool configured = false;
  if (!configured) {
    cudaFuncSetAttribute(add_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
    configured = true;
  }
  add_smem<<<(N + 127) / 128, 128, kSmemBytes>>>(A, B, C, N);
  noop<3><<<1, 64>>>(C, N);
  noop<3><<<2, 64>>>(C, N);
  cudaDeviceSynchronize();
}
)";

const json* find_kernel(const json& kernels, const std::string& display_name) {
  for (const auto& k : kernels)
    if (k.value("display_name", "") == display_name) return &k;
  return nullptr;
}

TEST(KernelResources, WhatCuptiSawAgreesWithPtxasAndTheSmLimits) {
  JUDGE_REQUIRE_GPU();
  TempDir tmp;
  judge::testing::write_file(tmp / "solve.cu", kTwoKernels);
  const std::map<std::string, std::string> env = {{"JUDGE_CACHE_DIR", (tmp / "cache").string()},
                                                  {"JUDGE_DB", (tmp / "db.sqlite").string()},
                                                  {"JUDGE_CALIBRATION", judge::testing::shared_calibration_file()}};
  auto r = judge::testing::run_command({judge::testing::cli_path().string(), "--json", "submit", "vector_add",
                                        (tmp / "solve.cu").string(), "--budget", "0.2", "--min-samples", "5"},
                                       env);
  const json j = judge::testing::json_of(r.output);
  ASSERT_FALSE(j.is_discarded()) << r.output.substr(0, 4000);
  ASSERT_EQ(j.value("verdict", ""), "accepted") << j.dump(2).substr(0, 4000);
  ASSERT_TRUE(j.contains("kernels")) << j.dump(2).substr(0, 4000);
  const json& kernels = j["kernels"];
  ASSERT_EQ(kernels.size(), 2u) << kernels.dump(2);  // not never_launched, and noop<3>'s two grids are one row

  const json* add = find_kernel(kernels, "add_smem");
  const json* noop = find_kernel(kernels, "noop<3>");
  ASSERT_NE(add, nullptr) << kernels.dump(2);
  ASSERT_NE(noop, nullptr) << kernels.dump(2);

  EXPECT_EQ((*add)["block"], json({128, 1, 1}));
  EXPECT_EQ((*add)["dynamic_smem"], 100 * 1024);
  EXPECT_EQ((*add)["launches_per_call"], 1.0);
  EXPECT_EQ((*noop)["block"], json({64, 1, 1}));
  EXPECT_EQ((*noop)["launches_per_call"], 2.0);
  EXPECT_EQ((*noop)["dynamic_smem"], 0);

  for (const json* k : {add, noop}) {
    ASSERT_TRUE(k->contains("ptxas")) << "the build's ptxas report names every kernel of solve.cu\n" << k->dump(2);
    // ptxas says how many registers the code uses, CUPTI how many each thread was given: the same but for the
    // allocation's granularity (on an H100, kernels using 8 or 12 registers are given 16).
    const int used = (*k)["ptxas"]["registers"].get<int>(), given = (*k)["registers"].get<int>();
    EXPECT_GT(used, 0) << k->dump(2);
    EXPECT_GE(given, used) << "CUPTI and ptxas disagree\n" << k->dump(2);
    EXPECT_LE(given, std::max(16, (used + 7) / 8 * 8)) << "CUPTI and ptxas disagree\n" << k->dump(2);
    EXPECT_EQ((*k)["static_smem"], (*k)["ptxas"]["shared_bytes"]) << k->dump(2);
    EXPECT_EQ((*k)["ptxas"]["spill_store_bytes"], 0) << k->dump(2);
    EXPECT_GT((*k)["time_percent"].get<double>(), 0.0) << k->dump(2);
  }
  EXPECT_NEAR((*add)["time_percent"].get<double>() + (*noop)["time_percent"].get<double>(), 100.0, 0.5);

  // 100 KB + the 1 KB the SM reserves per block: 2 blocks fit in the H100's (and H200's) 228 KB, 3 do not.
  const json& occ = (*add)["occupancy"];
  EXPECT_EQ(occ["limited_by"], "shared memory") << occ.dump();
  EXPECT_EQ(occ["blocks_per_sm"], 2) << occ.dump();
  EXPECT_EQ(occ["warps_per_sm"], 8) << occ.dump();
  EXPECT_EQ(occ["max_warps_per_sm"], 64) << occ.dump();
  EXPECT_NEAR(occ["percent"].get<double>(), 12.5, 1e-9) << occ.dump();
  // 2 warps per block of 64 threads, no shared memory, few registers: the SM's 32-block limit holds it to 64 warps.
  const json& nocc = (*noop)["occupancy"];
  EXPECT_EQ(nocc["blocks_per_sm"], 32) << nocc.dump();
  EXPECT_NEAR(nocc["percent"].get<double>(), 100.0, 1e-9) << nocc.dump();

  // The same figures in the human report's table.
  auto text = judge::testing::run_command({judge::testing::cli_path().string(), "submit", "vector_add",
                                           (tmp / "solve.cu").string(), "--budget", "0.2", "--min-samples", "5"},
                                          env);
  EXPECT_NE(text.output.find("kernels launched by solve()"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("add_smem"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("shared memory"), std::string::npos) << text.output;
}

}  // namespace
