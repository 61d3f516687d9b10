// Reference for challenges/token_embedding_layer: for each of the B * T tokens (row = b * T + t),
//   s = token_embeddings[token_ids[row]] + position_embeddings[position_ids[t]]       (D floats)
//   output[row] = (s - mean(s)) / sqrt(var(s) + eps) * gamma + beta                     (population variance)
// The gathered rows are added in double (so s is the exact sum), and the mean, then the sum of squared deviations
// from it (two passes over registers: nothing cancels), are reduced in double; each output is rounded to float once.
// Deterministic (no atomics).
//
// The shape is layer_normalization's reference (reference/rows.cuh): a row (D <= 1024) is given to one warp or to
// whole warps, read once from the two tables into registers, float4 where D % 4 == 0 (every row of both tables and of
// the output then starts 16-byte aligned), and reduced with warp shuffles plus, for rows wider than a warp, a
// fixed-order sum over the row's warps. Rows wider than 4096 (beyond the constraints) fall back to a block per row that
// gathers the row three times.
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/rows.cuh"

namespace {

constexpr const char* kId = "token_embedding_layer";
constexpr int kBlock = judge::ref::kBlock;

struct Args {
  const int* token_ids;
  const int* position_ids;
  const float* tok;
  const float* pos;
  const float* gamma;
  const float* beta;
  float* out;
  int rows, T, D;
  double eps;
};

// kThreads threads per token (kBlock / kThreads tokens per block); each holds kItems groups of kVec consecutive
// elements. Needs kThreads * kItems * kVec >= D.
template <int kThreads, int kVec, int kItems>
__global__ void __launch_bounds__(kBlock) rows_kernel(Args a) {
  __shared__ double scratch[kBlock / 32];
  const int lane = threadIdx.x % kThreads;
  const int row = blockIdx.x * (kBlock / kThreads) + threadIdx.x / kThreads;
  const bool live = row < a.rows;  // dead threads still take part in the barriers of row_reduce
  const int D = a.D;
  const std::int64_t tok_row = live ? __ldg(a.token_ids + row) : 0;
  const std::int64_t pos_row = live ? __ldg(a.position_ids + row % a.T) : 0;

  double v[kItems][kVec], p[kItems][kVec];
  judge::ref::load_row<kThreads>(a.tok + tok_row * D, D, live, lane, v, 0.0);
  judge::ref::load_row<kThreads>(a.pos + pos_row * D, D, live, lane, p, 0.0);
  double s = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      v[i][k] += p[i][k];
      s += v[i][k];
    }
  const double mean = judge::ref::row_reduce<kThreads>(s, scratch, 0.0, judge::ref::Sum{}) / D;

  double ss = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      const double d = v[i][k] - mean;
      v[i][k] = d;
      if (j < D) ss += d * d;
    }
  }
  const double var = judge::ref::row_reduce<kThreads>(ss, scratch, 0.0, judge::ref::Sum{}) / D;
  const double rstd = 1.0 / sqrt(var + a.eps);

  float* y = a.out + std::int64_t(row) * D;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
    if (!live || j >= D) continue;
    if constexpr (kVec == 4) {
      const float4 g = __ldg(reinterpret_cast<const float4*>(a.gamma + j));
      const float4 b = __ldg(reinterpret_cast<const float4*>(a.beta + j));
      float4 o;
      o.x = static_cast<float>(v[i][0] * rstd * g.x + b.x);
      o.y = static_cast<float>(v[i][1] * rstd * g.y + b.y);
      o.z = static_cast<float>(v[i][2] * rstd * g.z + b.z);
      o.w = static_cast<float>(v[i][3] * rstd * g.w + b.w);
      *reinterpret_cast<float4*>(y + j) = o;
    } else {
      y[j] = static_cast<float>(v[i][0] * rstd * __ldg(a.gamma + j) + __ldg(a.beta + j));
    }
  }
}

// Any D: one block per token, the two rows gathered from global memory for the mean, the variance and the output.
__global__ void long_rows_kernel(Args a) {
  __shared__ double stat;
  const int row = blockIdx.x;
  const float* tr = a.tok + std::int64_t(a.token_ids[row]) * a.D;
  const float* pr = a.pos + std::int64_t(a.position_ids[row % a.T]) * a.D;
  float* y = a.out + std::int64_t(row) * a.D;
  auto x = [&](int j) { return double(tr[j]) + double(pr[j]); };
  double s = 0.0;
  for (int j = threadIdx.x; j < a.D; j += kBlock) s += x(j);
  s = judge::ref::block_reduce(s, judge::ref::Sum{});
  if (threadIdx.x == 0) stat = s / a.D;
  __syncthreads();
  const double mean = stat;
  double ss = 0.0;
  for (int j = threadIdx.x; j < a.D; j += kBlock) ss += (x(j) - mean) * (x(j) - mean);
  ss = judge::ref::block_reduce(ss, judge::ref::Sum{});
  __syncthreads();  // everyone has read stat
  if (threadIdx.x == 0) stat = 1.0 / sqrt(ss / a.D + a.eps);
  __syncthreads();
  const double rstd = stat;
  for (int j = threadIdx.x; j < a.D; j += kBlock)
    y[j] = static_cast<float>((x(j) - mean) * rstd * a.gamma[j] + a.beta[j]);
}

template <int kThreads, int kVec, int kItems>
void launch(const Args& a, cudaStream_t s) {
  constexpr int rows_per_block = kBlock / kThreads;
  const unsigned blocks = static_cast<unsigned>((std::int64_t(a.rows) + rows_per_block - 1) / rows_per_block);
  rows_kernel<kThreads, kVec, kItems><<<blocks, kBlock, 0, s>>>(a);
  judge::ref::check_launch(kId, "rows_kernel");
}

void gpu(const judge::DeviceArgs& d, cudaStream_t s) {
  Args a{d.input<int>("token_ids"),
         d.input<int>("position_ids"),
         d.input<float>("token_embeddings"),
         d.input<float>("position_embeddings"),
         d.input<float>("gamma"),
         d.input<float>("beta"),
         d.output<float>("output"),
         0,
         d.scalar<int>("T"),
         d.scalar<int>("D"),
         double(d.scalar<float>("eps"))};
  const std::int64_t rows = std::int64_t(d.scalar<int>("B")) * a.T;
  if (rows <= 0 || a.D <= 0) return;
  a.rows = static_cast<int>(rows);
  const int D = a.D;
  const bool vec4 = D % 4 == 0 && judge::ref::aligned16(a.tok, a.pos, a.gamma, a.beta, a.out);
  if (vec4 && D <= 32 * 4 * 1) launch<32, 4, 1>(a, s);
  else if (vec4 && D <= 32 * 4 * 4) launch<32, 4, 4>(a, s);
  else if (vec4 && D <= 128 * 4 * 2) launch<128, 4, 2>(a, s);
  else if (vec4 && D <= 256 * 4 * 4) launch<256, 4, 4>(a, s);
  else if (D <= 32 * 1 * 1) launch<32, 1, 1>(a, s);
  else if (D <= 32 * 1 * 8) launch<32, 1, 8>(a, s);
  else if (D <= 256 * 1 * 4) launch<256, 1, 4>(a, s);
  else if (D <= 256 * 1 * 16) launch<256, 1, 16>(a, s);
  else {
    long_rows_kernel<<<static_cast<unsigned>(a.rows), kBlock, 0, s>>>(a);
    judge::ref::check_launch(kId, "long_rows_kernel");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t B = a.scalar<int>("B");
  const std::int64_t T = a.scalar<int>("T");
  const std::int64_t D = a.scalar<int>("D");
  const double eps = a.scalar<float>("eps");
  const int* token_ids = a.input<int>("token_ids");
  const int* position_ids = a.input<int>("position_ids");
  const float* tok = a.input<float>("token_embeddings");
  const float* pos = a.input<float>("position_embeddings");
  const float* gamma = a.input<float>("gamma");
  const float* beta = a.input<float>("beta");
  double* y = a.output("output");
  std::vector<double> x(static_cast<std::size_t>(D));
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t t = 0; t < T; ++t) {
      const std::int64_t row = b * T + t;
      const float* tr = tok + std::int64_t(token_ids[row]) * D;
      const float* pr = pos + std::int64_t(position_ids[t]) * D;
      double mean = 0.0;
      for (std::int64_t j = 0; j < D; ++j) mean += x[j] = double(tr[j]) + double(pr[j]);
      mean /= double(D);
      double var = 0.0;
      for (std::int64_t j = 0; j < D; ++j) var += (x[j] - mean) * (x[j] - mean);
      var /= double(D);
      const double rstd = 1.0 / std::sqrt(var + eps);
      for (std::int64_t j = 0; j < D; ++j) y[row * D + j] = (x[j] - mean) * rstd * gamma[j] + beta[j];
    }
}

}  // namespace

JUDGE_REFERENCE(token_embedding_layer, gpu, cpu)
