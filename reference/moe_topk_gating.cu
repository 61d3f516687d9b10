// Reference for challenges/moe_topk_gating: per row of logits (M x E), the k largest logits' indices in the order
// (logit descending, equal logits by smaller index first), and the softmax of those k logits.
//
// A warp per row. The order above is a strict total order on (value, index) pairs, so round r of k selects the
// first pair that comes after the pair selected in round r - 1: each lane scans its experts (strided by 32, from
// global memory, L1-resident after the first round) for the best pair after the previous one, and a warp argmax
// picks the winner. No "taken" flags, any E, exact (only comparisons). Each round writes its index and its logit
// (the logit into topk_weights, as scratch); then the weights exp(v - v0) / sum exp(v - v0) are computed in double
// from those logits (v0, the first, is the maximum) and overwrite them. Deterministic.
//
// Also the checker "moe_topk_indices": the exact comparison of the indices, with a diagnosis for the first wrong
// row (the right experts in another order, an expert chosen twice, or an expert that is not among the k largest).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "judge/worker/check.hpp"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "moe_topk_gating";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kWarpsPerBlock = kBlock / 32;

// True when (va, ia) comes before (vb, ib): larger logit first, equal logits by smaller index.
__device__ __forceinline__ bool before(float va, int ia, float vb, int ib) {
  return va > vb || (va == vb && ia < ib);
}

__global__ void __launch_bounds__(kBlock) gating_kernel(const float* __restrict__ logits, float* weights, int* indices,
                                                        int M, int E, int k) {
  const int lane = threadIdx.x & 31;
  const std::int64_t row = std::int64_t(blockIdx.x) * kWarpsPerBlock + (threadIdx.x >> 5);
  if (row >= M) return;  // whole warps leave together
  const float* x = logits + row * E;
  float* w = weights + row * k;
  int* idx = indices + row * k;

  float prev_v = INFINITY;
  int prev_i = -1;  // (+inf, -1) comes before every pair
  for (int r = 0; r < k; ++r) {
    float best_v = -INFINITY;
    int best_i = -1;  // "none": loses to every real pair
    for (int e = lane; e < E; e += 32) {
      const float v = x[e];
      if (before(prev_v, prev_i, v, e) && (best_i < 0 || before(v, e, best_v, best_i))) {
        best_v = v;
        best_i = e;
      }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const float ov = __shfl_xor_sync(0xffffffffu, best_v, o);
      const int oi = __shfl_xor_sync(0xffffffffu, best_i, o);
      if (oi >= 0 && (best_i < 0 || before(ov, oi, best_v, best_i))) {
        best_v = ov;
        best_i = oi;
      }
    }
    if (lane == 0) {
      idx[r] = best_i;
      w[r] = best_v;
    }
    prev_v = best_v;
    prev_i = best_i;
  }
  __syncwarp();  // the logits written by lane 0 are visible to the warp
  const double v0 = w[0];  // read by every lane before lane 0 overwrites it below (each lane rewrites only its own)
  __syncwarp();
  double s = 0.0;
  for (int r = lane; r < k; r += 32) s += exp(static_cast<double>(w[r]) - v0);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  const double inv = 1.0 / s;
  for (int r = lane; r < k; r += 32) w[r] = static_cast<float>(exp(static_cast<double>(w[r]) - v0) * inv);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int E = a.scalar<int>("E");
  const int k = a.scalar<int>("k");
  if (M <= 0 || E <= 0 || k <= 0) return;
  const unsigned blocks = static_cast<unsigned>((std::int64_t(M) + kWarpsPerBlock - 1) / kWarpsPerBlock);
  gating_kernel<<<blocks, kBlock, 0, s>>>(a.input<float>("logits"), a.output<float>("topk_weights"),
                                          a.output<int>("topk_indices"), M, E, k);
  judge::ref::check_launch(kId, "gating_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t E = a.scalar<int>("E");
  const std::int64_t k = a.scalar<int>("k");
  const float* x = a.input<float>("logits");
  double* w = a.output("topk_weights");
  double* idx = a.output("topk_indices");
  std::vector<std::int64_t> order(static_cast<std::size_t>(E));
  for (std::int64_t m = 0; m < M; ++m) {
    const float* row = x + m * E;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t i, std::int64_t j) { return row[i] > row[j]; });
    const double v0 = row[order[0]];
    double sum = 0.0;
    for (std::int64_t r = 0; r < k; ++r) sum += std::exp(static_cast<double>(row[order[r]]) - v0);
    for (std::int64_t r = 0; r < k; ++r) {
      idx[m * k + r] = static_cast<double>(order[r]);
      w[m * k + r] = std::exp(static_cast<double>(row[order[r]]) - v0) / sum;
    }
  }
}

constexpr std::int64_t kHostLimit = std::int64_t{1} << 26;

std::string row_text(const std::vector<double>& v, std::int64_t at, std::int64_t k) {
  std::string s = "[";
  const std::int64_t shown = std::min<std::int64_t>(k, 16);
  for (std::int64_t r = 0; r < shown; ++r) s += fmt::format("{}{}", r ? ", " : "", v[at + r]);
  return s + (shown < k ? ", ...]" : "]");
}

// The indices compared exactly; on a mismatch, what is wrong with the first wrong row.
judge::OutputCheck moe_topk_indices(const judge::CheckRequest& q) {
  judge::OutputCheck r = judge::compare_output(q);
  if (r.mismatches == 0 || r.unwritten > 0 || q.count > kHostLimit || q.shape.size() != 2) return r;
  const std::vector<double> got = judge::download_as_double(q.got, q.dtype, q.count, q.stream);
  const std::vector<double> want = judge::download_as_double(q.expected, q.dtype, q.count, q.stream);
  const std::int64_t k = q.shape[1];
  const std::int64_t rows = k > 0 ? q.count / k : 0;
  std::int64_t bad_rows = 0, first = -1;
  for (std::int64_t m = 0; m < rows; ++m)
    if (!std::equal(got.begin() + m * k, got.begin() + (m + 1) * k, want.begin() + m * k)) {
      ++bad_rows;
      if (first < 0) first = m;
    }
  if (first < 0) return r;
  const std::int64_t at = first * k;
  std::vector<double> g(got.begin() + at, got.begin() + at + k), w(want.begin() + at, want.begin() + at + k);
  std::vector<double> gs = g, ws = w;
  std::sort(gs.begin(), gs.end());
  std::sort(ws.begin(), ws.end());
  std::string what;
  const auto dup = std::adjacent_find(gs.begin(), gs.end());
  if (gs == ws) {
    what = "holds the right experts in another order; they go by descending logit, and equal logits by smaller "
           "index first";
  } else if (dup != gs.end()) {
    what = fmt::format("selects expert {} more than once", *dup);
  } else {
    double missing = 0, extra = 0;
    for (double v : ws)
      if (!std::binary_search(gs.begin(), gs.end(), v)) {
        missing = v;
        break;
      }
    for (double v : gs)
      if (!std::binary_search(ws.begin(), ws.end(), v)) {
        extra = v;
        break;
      }
    what = fmt::format("selects expert {}, which is not among the {} largest, and leaves out expert {} (if their "
                       "logits are equal: among equal logits the smaller index comes first)",
                       extra, k, missing);
  }
  r.message = fmt::format("{} rows of {} are wrong; row {} {}: got {}, expected {}", bad_rows, q.name, first, what,
                          row_text(got, at, k), row_text(want, at, k));
  return r;
}

}  // namespace

JUDGE_REFERENCE(moe_topk_gating, gpu, cpu)
JUDGE_CHECKER(moe_topk_indices, moe_topk_indices)
