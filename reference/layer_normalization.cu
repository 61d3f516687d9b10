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

// Shape (a judge::ref::RowShape): kThreads threads per row (kBlock / kThreads rows per block); each holds kItems groups
// of kVec consecutive elements (kVec = 4: float4 loads, which need C % 4 == 0 and 16-byte aligned pointers). Needs
// kThreads * kItems * kVec >= C.
template <class Shape>
__global__ void __launch_bounds__(kBlock) rows_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                      const float* __restrict__ b, float* __restrict__ y, int n_rows,
                                                      int C, float eps) {
  constexpr int kThreads = Shape::kThreads, kVec = Shape::kVec, kItems = Shape::kItems;
  __shared__ double scratch[kBlock / 32];
  const auto [lane, row, live] = judge::ref::row_thread<kThreads>(n_rows);
  const float* xr = x + row * C;
  float* yr = y + row * C;

  double v[kItems][kVec];
  judge::ref::load_row<kThreads>(xr, C, live, lane, v, 0.0);
  const double rstd = judge::ref::centre_row<kThreads>(v, C, lane, double(eps), scratch);
  judge::ref::store_row<kThreads, kVec, kItems>(yr, C, live, lane, [&](int i, int j, float (&o)[kVec]) {
    float wg[kVec], bg[kVec];
    judge::ref::load_group(w + j, wg);
    judge::ref::load_group(b + j, bg);
#pragma unroll
    for (int k = 0; k < kVec; ++k) o[k] = fmaf(static_cast<float>(v[i][k] * rstd), wg[k], bg[k]);
  });
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
  const auto kernel = [](auto shape) { return rows_kernel<decltype(shape)>; };
  if (!judge::ref::launch_rows<judge::ref::NormVec4Shapes, judge::ref::NormScalarShapes>(
          kId, "rows_kernel", vec4, C, N, s, kernel, x, w, b, y, N, C, eps)) {
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
