// Reference for challenges/layer_normalization: output = (x - mean) / sqrt(var + eps) * weight + bias per row, with
// the population variance. A row (C <= 4096) is read once into registers, as doubles; its mean, then the sum of
// squared deviations from that mean (two passes over the registers, so nothing cancels), are reduced in double by
// warp shuffles and, for rows wider than a warp, a fixed-order sum over the row's warps. Deterministic (no atomics).
// Rows wider than the constraints allow fall back to a block per row that reads the row three times.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/rows.cuh"

namespace {

constexpr const char* kId = "layer_normalization";
constexpr int kBlock = judge::ref::kBlock;

// kThreads threads per row (kBlock / kThreads rows per block); each holds kItems groups of kVec consecutive elements
// (kVec = 4: float4 loads, which need C % 4 == 0 and 16-byte aligned pointers). Needs kThreads * kItems * kVec >= C.
template <int kThreads, int kVec, int kItems>
__global__ void __launch_bounds__(kBlock) rows_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                      const float* __restrict__ b, float* __restrict__ y, int n_rows,
                                                      int C, float eps) {
  __shared__ double scratch[kBlock / 32];
  const int lane = threadIdx.x % kThreads;
  const std::int64_t row = std::int64_t(blockIdx.x) * (kBlock / kThreads) + threadIdx.x / kThreads;
  const bool live = row < n_rows;  // dead threads still take part in the barriers of row_reduce
  const float* xr = x + row * C;
  float* yr = y + row * C;

  double v[kItems][kVec];
  judge::ref::load_row<kThreads>(xr, C, live, lane, v, 0.0);
  double s = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
#pragma unroll
    for (int k = 0; k < kVec; ++k) s += v[i][k];
  const double mean = judge::ref::row_reduce<kThreads>(s, scratch, 0.0, judge::ref::Sum{}) / C;

  double ss = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      const double d = v[i][k] - mean;
      v[i][k] = d;
      if (j < C) ss += d * d;
    }
  }
  const double var = judge::ref::row_reduce<kThreads>(ss, scratch, 0.0, judge::ref::Sum{}) / C;
  const double rstd = 1.0 / sqrt(var + double(eps));

#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
    if (!live || j >= C) continue;
    if constexpr (kVec == 4) {
      const float4 wq = *reinterpret_cast<const float4*>(w + j);
      const float4 bq = *reinterpret_cast<const float4*>(b + j);
      float4 o;
      o.x = fmaf(static_cast<float>(v[i][0] * rstd), wq.x, bq.x);
      o.y = fmaf(static_cast<float>(v[i][1] * rstd), wq.y, bq.y);
      o.z = fmaf(static_cast<float>(v[i][2] * rstd), wq.z, bq.z);
      o.w = fmaf(static_cast<float>(v[i][3] * rstd), wq.w, bq.w);
      *reinterpret_cast<float4*>(yr + j) = o;
    } else {
      yr[j] = fmaf(static_cast<float>(v[i][0] * rstd), w[j], b[j]);
    }
  }
}

// Any C: one block per row, the row read from global memory for the mean, the variance and the output.
__global__ void long_rows_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                                 float* __restrict__ y, int C, float eps) {
  __shared__ double stat;
  const float* xr = x + std::int64_t(blockIdx.x) * C;
  float* yr = y + std::int64_t(blockIdx.x) * C;
  double s = 0.0;
  for (int j = threadIdx.x; j < C; j += kBlock) s += xr[j];
  s = judge::ref::block_reduce(s, judge::ref::Sum{});
  if (threadIdx.x == 0) stat = s / C;
  __syncthreads();
  const double mean = stat;
  double ss = 0.0;
  for (int j = threadIdx.x; j < C; j += kBlock) ss += (xr[j] - mean) * (xr[j] - mean);
  ss = judge::ref::block_reduce(ss, judge::ref::Sum{});
  __syncthreads();  // everyone has read stat
  if (threadIdx.x == 0) stat = 1.0 / sqrt(ss / C + double(eps));
  __syncthreads();
  const double rstd = stat;
  for (int j = threadIdx.x; j < C; j += kBlock) yr[j] = fmaf(static_cast<float>((xr[j] - mean) * rstd), w[j], b[j]);
}

template <int kThreads, int kVec, int kItems>
void launch(const float* x, const float* w, const float* b, float* y, int N, int C, float eps, cudaStream_t s) {
  constexpr int rows_per_block = kBlock / kThreads;
  const unsigned blocks = static_cast<unsigned>((std::int64_t(N) + rows_per_block - 1) / rows_per_block);
  rows_kernel<kThreads, kVec, kItems><<<blocks, kBlock, 0, s>>>(x, w, b, y, N, C, eps);
  judge::ref::check_launch(kId, "rows_kernel");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  const int C = a.scalar<int>("C");
  const float eps = a.scalar<float>("eps");
  if (N <= 0 || C <= 0) return;
  const float* x = a.input<float>("input");
  const float* w = a.input<float>("weight");
  const float* b = a.input<float>("bias");
  float* y = a.output<float>("output");
  const bool vec4 = C % 4 == 0 && judge::ref::aligned16(x, w, b, y);
  if (vec4 && C <= 32 * 4 * 1) launch<32, 4, 1>(x, w, b, y, N, C, eps, s);
  else if (vec4 && C <= 32 * 4 * 4) launch<32, 4, 4>(x, w, b, y, N, C, eps, s);
  else if (vec4 && C <= 128 * 4 * 2) launch<128, 4, 2>(x, w, b, y, N, C, eps, s);
  else if (vec4 && C <= 256 * 4 * 4) launch<256, 4, 4>(x, w, b, y, N, C, eps, s);
  else if (C <= 32 * 1 * 1) launch<32, 1, 1>(x, w, b, y, N, C, eps, s);
  else if (C <= 32 * 1 * 8) launch<32, 1, 8>(x, w, b, y, N, C, eps, s);
  else if (C <= 256 * 1 * 4) launch<256, 1, 4>(x, w, b, y, N, C, eps, s);
  else if (C <= 256 * 1 * 16) launch<256, 1, 16>(x, w, b, y, N, C, eps, s);
  else {
    long_rows_kernel<<<static_cast<unsigned>(N), kBlock, 0, s>>>(x, w, b, y, C, eps);
    judge::ref::check_launch(kId, "long_rows_kernel");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t C = a.scalar<int>("C");
  const double eps = a.scalar<float>("eps");
  const float* x = a.input<float>("input");
  const float* w = a.input<float>("weight");
  const float* b = a.input<float>("bias");
  double* y = a.output("output");
  for (std::int64_t r = 0; r < N; ++r) {
    const float* xr = x + r * C;
    double mean = 0.0;
    for (std::int64_t j = 0; j < C; ++j) mean += xr[j];
    mean /= double(C);
    double var = 0.0;
    for (std::int64_t j = 0; j < C; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    var /= double(C);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (std::int64_t j = 0; j < C; ++j) y[r * C + j] = (xr[j] - mean) * rstd * w[j] + b[j];
  }
}

}  // namespace

JUDGE_REFERENCE(layer_normalization, gpu, cpu)
