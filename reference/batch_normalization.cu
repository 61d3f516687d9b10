// Reference for challenges/batch_normalization: per column j of the N x C input, the mean and the population variance
// over the N rows, then output = (x - mean) / sqrt(var + eps) * gamma[j] + beta[j]. Three kernels:
//   1. column sums: the matrix is cut into tiles of 128 columns by a chunk of rows; each block adds, per column, the
//      deviations d = x - x[0][j] and d^2 in double (shifting by the column's first value keeps the one-pass variance
//      free of cancellation) and writes one (sum d, sum d^2) pair per column and chunk;
//   2. column statistics: per column, the chunks' pairs added in chunk order (deterministic), giving the mean and
//      gamma / sqrt(var + eps);
//   3. the element-wise pass in double, over the same tiles with the chunks in reverse order, so that the rows the
//      first kernel read last are the likeliest to be still in L2.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "batch_normalization";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kTileCols = 128;         // columns per block
constexpr int kTargetBlocks = 2048;    // enough blocks in flight to fill the GPU
constexpr int kMinRowsPerChunk = 32;   // keeps the partials (and kernel 2's work) small next to the input

struct ColumnStat {
  double mean;
  double scale;  // gamma / sqrt(var + eps)
};

// Threads of a block: kTileCols / kVec along the columns (each owning kVec adjacent columns; kVec = 4 uses float4
// loads, which need C % 4 == 0 and aligned pointers), the rest along the rows of the chunk.
template <int kVec>
__global__ void __launch_bounds__(kBlock) column_sums_kernel(const float* __restrict__ x, int N, int C,
                                                             int rows_per_chunk, double2* __restrict__ partial) {
  constexpr int kTx = kTileCols / kVec, kTy = kBlock / kTx;
  __shared__ double2 sums[kTy][kTileCols];
  const int tx = threadIdx.x % kTx, ty = threadIdx.x / kTx;
  const int col0 = blockIdx.x * kTileCols + tx * kVec;
  const int r0 = blockIdx.y * rows_per_chunk;
  const int r1 = min(N, r0 + rows_per_chunk);
  double s1[kVec], s2[kVec], shift[kVec];
#pragma unroll
  for (int k = 0; k < kVec; ++k) s1[k] = s2[k] = shift[k] = 0.0;
  if (col0 < C) {
#pragma unroll
    for (int k = 0; k < kVec; ++k) shift[k] = x[col0 + k];
#pragma unroll 4
    for (int r = r0 + ty; r < r1; r += kTy) {
      const float* p = x + std::size_t(r) * C + col0;
      float v[kVec];
      if constexpr (kVec == 4) {
        const float4 q = *reinterpret_cast<const float4*>(p);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      } else {
        v[0] = *p;
      }
#pragma unroll
      for (int k = 0; k < kVec; ++k) {
        const double d = double(v[k]) - shift[k];
        s1[k] += d;
        s2[k] += d * d;
      }
    }
  }
#pragma unroll
  for (int k = 0; k < kVec; ++k) sums[ty][tx * kVec + k] = make_double2(s1[k], s2[k]);
  __syncthreads();
  const int t = threadIdx.x;  // one thread per column of the tile adds the kTy rows of sums, in order
  const int col = blockIdx.x * kTileCols + t;
  if (t < kTileCols && col < C) {
    double2 acc = make_double2(0.0, 0.0);
    for (int i = 0; i < kTy; ++i) acc.x += sums[i][t].x, acc.y += sums[i][t].y;
    partial[std::size_t(blockIdx.y) * C + col] = acc;
  }
}

__global__ void column_stats_kernel(const float* __restrict__ x, const float* __restrict__ gamma, int N, int C,
                                    int chunks, float eps, const double2* __restrict__ partial,
                                    ColumnStat* __restrict__ stats) {
  const int col = blockIdx.x * kBlock + threadIdx.x;
  if (col >= C) return;
  double s1 = 0.0, s2 = 0.0;
  for (int k = 0; k < chunks; ++k) {
    const double2 p = partial[std::size_t(k) * C + col];
    s1 += p.x;
    s2 += p.y;
  }
  const double offset = s1 / N;  // mean - x[0][col]
  const double var = fmax(s2 / N - offset * offset, 0.0);
  stats[col] = {double(x[col]) + offset, double(gamma[col]) / sqrt(var + double(eps))};
}

template <int kVec>
__global__ void __launch_bounds__(kBlock) normalize_kernel(const float* __restrict__ x,
                                                           const float* __restrict__ beta,
                                                           const ColumnStat* __restrict__ stats,
                                                           float* __restrict__ y, int N, int C, int rows_per_chunk) {
  constexpr int kTx = kTileCols / kVec, kTy = kBlock / kTx;
  const int tx = threadIdx.x % kTx, ty = threadIdx.x / kTx;
  const int col0 = blockIdx.x * kTileCols + tx * kVec;
  if (col0 >= C) return;
  const int chunk = gridDim.y - 1 - blockIdx.y;
  const int r0 = chunk * rows_per_chunk;
  const int r1 = min(N, r0 + rows_per_chunk);
  double mean[kVec], scale[kVec], shift[kVec];
#pragma unroll
  for (int k = 0; k < kVec; ++k) {
    const ColumnStat s = stats[col0 + k];
    mean[k] = s.mean, scale[k] = s.scale, shift[k] = beta[col0 + k];
  }
#pragma unroll 4
  for (int r = r0 + ty; r < r1; r += kTy) {
    const std::size_t at = std::size_t(r) * C + col0;
    if constexpr (kVec == 4) {
      const float4 q = *reinterpret_cast<const float4*>(x + at);
      float4 o;
      o.x = static_cast<float>(fma(double(q.x) - mean[0], scale[0], shift[0]));
      o.y = static_cast<float>(fma(double(q.y) - mean[1], scale[1], shift[1]));
      o.z = static_cast<float>(fma(double(q.z) - mean[2], scale[2], shift[2]));
      o.w = static_cast<float>(fma(double(q.w) - mean[3], scale[3], shift[3]));
      *reinterpret_cast<float4*>(y + at) = o;
    } else {
      y[at] = static_cast<float>(fma(double(x[at]) - mean[0], scale[0], shift[0]));
    }
  }
}

template <int kVec>
void run(const float* x, const float* gamma, const float* beta, float* y, int N, int C, float eps,
         judge::ref::Scratch& scratch, cudaStream_t s) {
  const int col_tiles = (C + kTileCols - 1) / kTileCols;
  const std::int64_t wanted = (std::int64_t(N) * col_tiles + kTargetBlocks - 1) / kTargetBlocks;
  const int rows_per_chunk = static_cast<int>(wanted < kMinRowsPerChunk ? kMinRowsPerChunk : wanted);
  const int chunks = (N + rows_per_chunk - 1) / rows_per_chunk;
  const std::size_t partial_bytes = std::size_t(chunks) * C * sizeof(double2);
  char* base = scratch.get<char>(partial_bytes + std::size_t(C) * sizeof(ColumnStat));
  auto* partial = reinterpret_cast<double2*>(base);
  auto* stats = reinterpret_cast<ColumnStat*>(base + partial_bytes);
  const dim3 grid(static_cast<unsigned>(col_tiles), static_cast<unsigned>(chunks));
  column_sums_kernel<kVec><<<grid, kBlock, 0, s>>>(x, N, C, rows_per_chunk, partial);
  judge::ref::check_launch(kId, "column_sums_kernel");
  column_stats_kernel<<<(C + kBlock - 1) / kBlock, kBlock, 0, s>>>(x, gamma, N, C, chunks, eps, partial, stats);
  judge::ref::check_launch(kId, "column_stats_kernel");
  normalize_kernel<kVec><<<grid, kBlock, 0, s>>>(x, beta, stats, y, N, C, rows_per_chunk);
  judge::ref::check_launch(kId, "normalize_kernel");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  const int C = a.scalar<int>("C");
  const float eps = a.scalar<float>("eps");
  if (N <= 0 || C <= 0) return;
  const float* x = a.input<float>("input");
  const float* gamma = a.input<float>("gamma");
  const float* beta = a.input<float>("beta");
  float* y = a.output<float>("output");
  // One buffer for both instantiations of run: the partial sums and the column statistics.
  static judge::ref::Scratch scratch(kId, "column partials and statistics");
  if (C % 4 == 0 && judge::ref::aligned16(x, y)) run<4>(x, gamma, beta, y, N, C, eps, scratch, s);
  else run<1>(x, gamma, beta, y, N, C, eps, scratch, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t C = a.scalar<int>("C");
  const double eps = a.scalar<float>("eps");
  const float* x = a.input<float>("input");
  const float* gamma = a.input<float>("gamma");
  const float* beta = a.input<float>("beta");
  double* y = a.output("output");
  for (std::int64_t j = 0; j < C; ++j) {
    double mean = 0.0;
    for (std::int64_t i = 0; i < N; ++i) mean += x[i * C + j];
    mean /= double(N);
    double var = 0.0;
    for (std::int64_t i = 0; i < N; ++i) var += (x[i * C + j] - mean) * (x[i * C + j] - mean);
    var /= double(N);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (std::int64_t i = 0; i < N; ++i) y[i * C + j] = (x[i * C + j] - mean) * rstd * gamma[j] + beta[j];
  }
}

}  // namespace

JUDGE_REFERENCE(batch_normalization, gpu, cpu)
