#pragma once
// The row softmax of the attention references that score with one product and normalise after the next (softmax_
// attention, casual_attention, attn_w_linear_bias, softmax_attention_backward, grouped_query_attention,
// multi_head_cross_attention, int8_kv_cache_attention, gpt2_block, llama_transformer_block): each row of unscaled
// scores S becomes E = exp(x - max x) in place, x being the row's logits as the challenge defines them (a Logits
// policy below: the scaled score, with a causal mask, with a linear bias), with 1 / sum(E) kept per row; the rows of
// E V are multiplied by it afterwards (scale_rows_kernel). The logits, their maximum, the exponentials and their sum
// are in double, and E is rounded to float once. Keys a row does not see get E = 0 exactly, whatever the buffer held
// there, so the E V product may run over them. Below the kernels: their checked launches, the single-head chunk of
// Q K^T, softmax, E V and scaling by cuBLAS SGEMM that several of those references share, and the CPU references' one
// query row of attention in double.
//
// The kernels and the functions that launch them have internal linkage (static): every reference that includes this
// header gets its own copy, so the references link together without clashing.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "reference/reference_util.cuh"
#include "reference/score_chunks.cuh"
#include "reference/scratch.cuh"

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

// softmax_rows_kernel over `rows` rows of S (one block each), launched on `stream` and checked.
template <class Logits>
static inline void launch_softmax_rows(const char* challenge, float* S, std::int64_t ld, std::int64_t cols,
                                       std::int64_t rows, Logits logits, double* inv_sum, cudaStream_t stream) {
  softmax_rows_kernel<<<static_cast<unsigned>(rows), kBlock, 0, stream>>>(S, ld, cols, logits, inv_sum);
  check_launch(challenge, "softmax_rows_kernel");
}

// scale_rows_kernel over count = rows x d outputs, launched on `stream` and checked.
static inline void launch_scale_rows(const char* challenge, float* out, const double* inv_sum, std::int64_t count,
                                     int d, cudaStream_t stream) {
  scale_rows_kernel<<<grid_for(count), kBlock, 0, stream>>>(out, inv_sum, count, d);
  check_launch(challenge, "scale_rows_kernel");
}

// The scores of r query rows against N keys, Q_chunk (r x d) and K (N x d) row-major: S (r x N, row-major) =
// Q_chunk K^T by cuBLAS SGEMM in the math mode the caller set on h, then each row of S becomes E in place and
// inv_sum[i] = 1 / sum of row i (softmax_rows_kernel with `logits`).
template <class Logits>
static inline void attention_scores(const char* challenge, cublasHandle_t h, const float* Q_chunk, const float* K,
                                    int r, int N, int d, float* S, Logits logits, double* inv_sum,
                                    cudaStream_t stream) {
  const float one = 1.0f, zero = 0.0f;
  // cuBLAS is column-major, and a row-major R x C matrix read column-major is its C x R transpose. Row-major
  // S (r x N) = Q_chunk (r x d) K^T is column-major S^T (N x r) = K Q_chunk^T: K's buffer read column-major is
  // K^T (d x N, ld d), transposed back by CUBLAS_OP_T; Q_chunk's is Q_chunk^T (d x r, ld d).
  check_cublas(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, N, r, d, &one, K, d, Q_chunk, d, &zero, S, N), challenge,
               "cublasSgemm(Q K^T)");
  launch_softmax_rows(challenge, S, N, N, r, logits, inv_sum, stream);
}

// out_chunk (r x d, row-major) = E V scaled row by row by inv_sum: E the r x keys scores in S (leading dimension ld),
// V (keys x d, row-major), by cuBLAS SGEMM in the math mode the caller set on h, then scale_rows_kernel.
static inline void attention_output(const char* challenge, cublasHandle_t h, const float* S, std::int64_t ld,
                                    int keys, const float* V, float* out_chunk, int r, int d, const double* inv_sum,
                                    cudaStream_t stream) {
  const float one = 1.0f, zero = 0.0f;
  // Row-major out_chunk (r x d) = E (r x keys, ld) V (keys x d) is column-major out^T (d x r) = V^T (d x keys, ld d)
  // E^T (keys x r, ld): both buffers already read as those transposes, so no operation is transposed.
  check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, d, r, keys, &one, V, d, S, ld, &zero, out_chunk, d), challenge,
               "cublasSgemm(E V)");
  launch_scale_rows(challenge, out_chunk, inv_sum, std::int64_t(r) * d, d, stream);
}

// Single-head attention, out = softmax(logits) V for Q (M x d) against K and V (N x d), all row-major, over chunks of
// query rows whose scores fit `budget` floats (equal_chunk): per chunk from query row r0, attention_scores with
// logits_at(r0), then attention_output. The scores and the row sums live in `scores` and `sums`.
template <class LogitsAt>
static inline void attention_in_chunks(const char* challenge, cublasHandle_t h, const float* Q, const float* K,
                                       const float* V, float* out, int M, int N, int d, std::int64_t budget,
                                       Scratch& scores, Scratch& sums, LogitsAt logits_at, cudaStream_t stream) {
  const int rows = static_cast<int>(equal_chunk(M, N, budget));
  float* S = scores.get<float>(static_cast<std::size_t>(rows) * N);
  double* inv_sum = sums.get<double>(static_cast<std::size_t>(rows));
  for (int r0 = 0; r0 < M; r0 += rows) {
    const int r = std::min(rows, M - r0);
    attention_scores(challenge, h, Q + std::int64_t(r0) * d, K, r, N, d, S, logits_at(r0), inv_sum, stream);
    attention_output(challenge, h, S, N, N, V, out + std::int64_t(r0) * d, r, d, inv_sum, stream);
  }
}

// For CPU references, in double: one query row q (d values) of softmax attention over `keys` keys. Key j's logit is
// p[j] = logit(j, dot), dot = q . (row j of K, row stride ldk) summed in order; then p[j] = exp(p[j] - max), and
// out[c] = the sum over j, in order, of p[j] / sum * (row j of V, row stride ldv)[c]. p: room for `keys` doubles.
template <class Logit>
void attention_row_cpu(const float* q, const float* K, std::int64_t ldk, const float* V, std::int64_t ldv,
                       std::int64_t keys, std::int64_t d, Logit logit, double* p, double* out) {
  double m = -INFINITY;
  for (std::int64_t j = 0; j < keys; ++j) {
    double dot = 0.0;
    for (std::int64_t c = 0; c < d; ++c) dot += double(q[c]) * double(K[j * ldk + c]);
    p[j] = logit(j, dot);
    m = p[j] > m ? p[j] : m;
  }
  double sum = 0.0;
  for (std::int64_t j = 0; j < keys; ++j) sum += (p[j] = std::exp(p[j] - m));
  for (std::int64_t c = 0; c < d; ++c) out[c] = 0.0;
  for (std::int64_t j = 0; j < keys; ++j)
    for (std::int64_t c = 0; c < d; ++c) out[c] += p[j] / sum * double(V[j * ldv + c]);
}

}  // namespace judge::ref
