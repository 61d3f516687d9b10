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

// Shape (a judge::ref::RowShape): kThreads threads per token (kBlock / kThreads tokens per block); each holds kItems
// groups of kVec consecutive elements. Needs kThreads * kItems * kVec >= D.
template <class Shape>
__global__ void __launch_bounds__(kBlock) rows_kernel(Args a) {
  constexpr int kThreads = Shape::kThreads, kVec = Shape::kVec, kItems = Shape::kItems;
  __shared__ double scratch[kBlock / 32];
  const auto [lane, row, live] = judge::ref::row_thread<kThreads>(a.rows);
  const int D = a.D;
  const std::int64_t tok_row = live ? __ldg(a.token_ids + row) : 0;
  const std::int64_t pos_row = live ? __ldg(a.position_ids + row % a.T) : 0;

  double v[kItems][kVec], p[kItems][kVec];
  judge::ref::load_row<kThreads>(a.tok + tok_row * D, D, live, lane, v, 0.0);
  judge::ref::load_row<kThreads>(a.pos + pos_row * D, D, live, lane, p, 0.0);
#pragma unroll
  for (int i = 0; i < kItems; ++i)
#pragma unroll
    for (int k = 0; k < kVec; ++k) v[i][k] += p[i][k];
  const double rstd = judge::ref::centre_row<kThreads>(v, D, lane, a.eps, scratch);
  const auto out = [&](int i, int j, float (&o)[kVec]) {
    float g[kVec], b[kVec];
    judge::ref::load_group(a.gamma + j, g);
    judge::ref::load_group(a.beta + j, b);
#pragma unroll
    for (int k = 0; k < kVec; ++k) o[k] = static_cast<float>(v[i][k] * rstd * g[k] + b[k]);
  };
  judge::ref::store_row<kThreads, kVec, kItems>(a.out + row * D, D, live, lane, out);
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
  const auto kernel = [](auto shape) { return rows_kernel<decltype(shape)>; };
  if (!judge::ref::launch_rows<judge::ref::NormVec4Shapes, judge::ref::NormScalarShapes>(kId, "rows_kernel", vec4, D,
                                                                                        a.rows, s, kernel, a)) {
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
