#pragma once
// The row softmax of the attention references that score with one product and normalise after the next (softmax_
// attention, grouped_query_attention, multi_head_cross_attention, int8_kv_cache_attention): each row of unscaled
// scores S becomes E = exp((s - max) * scale) in place, with 1 / sum(E) kept per row, and the rows of E V are
// multiplied by it afterwards. The maximum is taken in float, the exponentials and their sum in double, and E is
// rounded to float once.
//
// Both kernels have internal linkage (static): every reference that includes this header gets its own copy, so the
// references link together without clashing.
#include <cstdint>

#include "reference/reference_util.cuh"

namespace judge::ref {

// One block of kBlock threads per row of S (n scores): S[i] <- exp((S[i] - max) * scale), in place, and
// inv_sum[row] = 1 / sum of them. Rows are read 16 bytes at a time where n % 4 == 0 (every row then starts 16-byte
// aligned).
static __global__ void softmax_rows_kernel(float* S, std::int64_t n, double scale, double* inv_sum) {
  __shared__ float row_max;
  float* row = S + blockIdx.x * n;
  float4* row4 = reinterpret_cast<float4*>(row);
  const std::int64_t quads = n % 4 == 0 ? n / 4 : 0;  // the rest, n - 4 * quads, goes element by element
  float m = -INFINITY;
  for (std::int64_t q = threadIdx.x; q < quads; q += kBlock) {
    const float4 v = row4[q];
    m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  for (std::int64_t j = 4 * quads + threadIdx.x; j < n; j += kBlock) m = fmaxf(m, row[j]);
  m = block_reduce(m, Max{});
  if (threadIdx.x == 0) row_max = m;
  __syncthreads();
  const double mx = row_max;
  double acc = 0.0;
  auto e = [&](float s) {
    const double x = exp((double(s) - mx) * scale);
    acc += x;
    return static_cast<float>(x);
  };
  for (std::int64_t q = threadIdx.x; q < quads; q += kBlock) {
    const float4 v = row4[q];
    row4[q] = make_float4(e(v.x), e(v.y), e(v.z), e(v.w));
  }
  for (std::int64_t j = 4 * quads + threadIdx.x; j < n; j += kBlock) row[j] = e(row[j]);
  acc = block_reduce(acc, Sum{});
  if (threadIdx.x == 0) inv_sum[blockIdx.x] = 1.0 / acc;  // acc >= 1: the maximum's own term is exp(0)
}

// out[i][c] *= inv_sum[i] for count = rows x d outputs, row-major.
static __global__ void scale_rows_kernel(float* out, const double* inv_sum, std::int64_t count, int d) {
  for (std::int64_t k = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; k < count;
       k += std::int64_t(gridDim.x) * kBlock)
    out[k] = static_cast<float>(double(out[k]) * inv_sum[k / d]);
}

}  // namespace judge::ref
