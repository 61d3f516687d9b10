#pragma once
// The row softmax of the attention references that score with one product and normalise after the next (softmax_
// attention, casual_attention, attn_w_linear_bias, grouped_query_attention, multi_head_cross_attention,
// int8_kv_cache_attention): each row of unscaled scores S becomes E = exp(x - max x) in place, x being the row's
// logits as the challenge defines them (a Logits policy below: the scaled score, with a causal mask, with a linear
// bias), with 1 / sum(E) kept per row; the rows of E V are multiplied by it afterwards (scale_rows_kernel). The
// logits, their maximum, the exponentials and their sum are in double, and E is rounded to float once. Keys a row
// does not see get E = 0 exactly, whatever the buffer held there, so the E V product may run over them.
//
// Both kernels have internal linkage (static): every reference that includes this header gets its own copy, so the
// references link together without clashing.
#include <cstdint>

#include "reference/reference_util.cuh"

namespace judge::ref {

// A Logits policy says, for row `row` of a launch (blockIdx.x) holding `cols` scores, how many leading keys it sees
// (visible) and the logit of the score s of key j < visible.

// softmax(S * scale): every key seen.
struct ScaledLogits {
  double scale;
  __device__ std::int64_t visible(std::int64_t, std::int64_t cols) const { return cols; }
  __device__ double operator()(std::int64_t, std::int64_t, float s) const { return double(s) * scale; }
};

// The causal mask: the launch's row r is query row0 + r, which sees keys 0..row0 + r.
struct CausalScaledLogits {
  double scale;
  std::int64_t row0;
  __device__ std::int64_t visible(std::int64_t row, std::int64_t cols) const {
    return row0 + row + 1 < cols ? row0 + row + 1 : cols;
  }
  __device__ double operator()(std::int64_t, std::int64_t, float s) const { return double(s) * scale; }
};

// ALiBi: the scaled score plus alpha * (i - j), i = row0 + r the query's row and j the key's.
struct LinearBiasLogits {
  double scale;
  double alpha;
  std::int64_t row0;
  __device__ std::int64_t visible(std::int64_t, std::int64_t cols) const { return cols; }
  __device__ double operator()(std::int64_t row, std::int64_t j, float s) const {
    return double(s) * scale + alpha * (double(row0 + row) - double(j));
  }
};

// One block of kBlock threads per row: row r of S (leading dimension ld, `cols` scores) becomes E in place and
// inv_sum[r] = 1 / sum of it. Rows are read 16 bytes at a time where ld % 4 == 0 (every row then starts 16-byte
// aligned). Every row must see at least one key.
template <class Logits>
static __global__ void softmax_rows_kernel(float* S, std::int64_t ld, std::int64_t cols, Logits logits,
                                           double* inv_sum) {
  __shared__ double row_max;
  const std::int64_t r = blockIdx.x;
  float* row = S + r * ld;
  float4* row4 = reinterpret_cast<float4*>(row);
  const std::int64_t valid = logits.visible(r, cols);
  const std::int64_t quads = ld % 4 == 0 ? cols / 4 : 0;  // the rest, cols - 4 * quads, goes element by element
  const std::int64_t quads_valid = quads < (valid + 3) / 4 ? quads : (valid + 3) / 4;
  double m = -INFINITY;
  auto take_max = [&](float s, std::int64_t j) {
    if (j < valid) m = fmax(m, logits(r, j, s));
  };
  for (std::int64_t q = threadIdx.x; q < quads_valid; q += kBlock) {
    const float4 v = row4[q];
    const std::int64_t j = 4 * q;
    take_max(v.x, j), take_max(v.y, j + 1), take_max(v.z, j + 2), take_max(v.w, j + 3);
  }
  for (std::int64_t j = 4 * quads + threadIdx.x; j < valid; j += kBlock) take_max(row[j], j);
  m = block_reduce(m, Max{});
  if (threadIdx.x == 0) row_max = m;
  __syncthreads();
  const double mx = row_max;
  double acc = 0.0;
  auto e = [&](float s, std::int64_t j) {
    if (j >= valid) return 0.0f;  // not seen: exactly 0, whatever lies in the buffer there
    const double x = exp(logits(r, j, s) - mx);
    acc += x;
    return static_cast<float>(x);
  };
  for (std::int64_t q = threadIdx.x; q < quads; q += kBlock) {
    const std::int64_t j = 4 * q;
    const float4 v = q < quads_valid ? row4[q] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    row4[q] = make_float4(e(v.x, j), e(v.y, j + 1), e(v.z, j + 2), e(v.w, j + 3));
  }
  for (std::int64_t j = 4 * quads + threadIdx.x; j < cols; j += kBlock) row[j] = e(row[j], j);
  acc = block_reduce(acc, Sum{});
  if (threadIdx.x == 0) inv_sum[r] = 1.0 / acc;  // acc >= 1: the maximum's own term is exp(0)
}

// out[i][c] *= inv_sum[i] for count = rows x d outputs, row-major.
static __global__ void scale_rows_kernel(float* out, const double* inv_sum, std::int64_t count, int d) {
  for (std::int64_t k = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; k < count;
       k += std::int64_t(gridDim.x) * kBlock)
    out[k] = static_cast<float>(double(out[k]) * inv_sum[k / d]);
}

}  // namespace judge::ref
