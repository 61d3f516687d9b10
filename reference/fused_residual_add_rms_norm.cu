// Reference for challenges/fused_residual_add_rms_norm: z = x + residual, out = z / sqrt(mean(z^2) + eps) * weight per
// row; z is not an output. z is rounded to float, as PyTorch and every kernel compute it (one rounding of one
// addition); the sum of squares and the scaling are in double. A row (C <= 8192, both benchmarks) is read once into
// registers, its sum of squares reduced by warp shuffles and, for rows wider than a warp, a fixed-order sum over the
// row's warps (judge::ref::row_reduce). Deterministic (no atomics). Longer rows (up to the constraints' 65536, tests
// only) fall back to a block per row that reads x and residual twice.
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/rows.cuh"

namespace {

constexpr const char* kId = "fused_residual_add_rms_norm";
constexpr int kBlock = judge::ref::kBlock;

// kThreads threads per row (kBlock / kThreads rows per block); each holds kItems groups of kVec consecutive elements
// of z (kVec = 4: float4 loads, which need C % 4 == 0 and 16-byte aligned pointers). Needs kThreads*kItems*kVec >= C.
template <int kThreads, int kVec, int kItems>
__global__ void __launch_bounds__(kBlock) rows_kernel(const float* __restrict__ x, const float* __restrict__ r,
                                                      const float* __restrict__ w, float* __restrict__ y, int n_rows,
                                                      int C, float eps) {
  __shared__ double scratch[kBlock / 32];
  const int lane = threadIdx.x % kThreads;
  const std::int64_t row = std::int64_t(blockIdx.x) * (kBlock / kThreads) + threadIdx.x / kThreads;
  const bool live = row < n_rows;  // dead threads still take part in the barriers of row_reduce

  float z[kItems][kVec], rv[kItems][kVec];
  judge::ref::load_row<kThreads>(x + row * C, C, live, lane, z, 0.0f);
  judge::ref::load_row<kThreads>(r + row * C, C, live, lane, rv, 0.0f);
  double ss = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      z[i][k] = __fadd_rn(z[i][k], rv[i][k]);  // elements past the row are 0 + 0
      ss += double(z[i][k]) * z[i][k];
    }
  const double inv_rms = 1.0 / sqrt(judge::ref::row_reduce<kThreads>(ss, scratch, 0.0, judge::ref::Sum{}) / C +
                                    double(eps));

  float* yr = y + row * C;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
    if (!live || j >= C) continue;
    if constexpr (kVec == 4) {
      const float4 wq = *reinterpret_cast<const float4*>(w + j);
      float4 o;
      o.x = static_cast<float>(double(z[i][0]) * inv_rms * wq.x);
      o.y = static_cast<float>(double(z[i][1]) * inv_rms * wq.y);
      o.z = static_cast<float>(double(z[i][2]) * inv_rms * wq.z);
      o.w = static_cast<float>(double(z[i][3]) * inv_rms * wq.w);
      *reinterpret_cast<float4*>(yr + j) = o;
    } else {
      yr[j] = static_cast<float>(double(z[i][0]) * inv_rms * w[j]);
    }
  }
}

// Any C: one block per row; x and residual are read once for the sum of squares and again for the output.
__global__ void long_rows_kernel(const float* __restrict__ x, const float* __restrict__ r, const float* __restrict__ w,
                                 float* __restrict__ y, int C, bool vec4, float eps) {
  __shared__ double inv_rms;
  const std::int64_t base = std::int64_t(blockIdx.x) * C;
  double ss = 0.0;
  if (vec4) {
    for (int q = threadIdx.x; q < C / 4; q += kBlock) {
      const float4 a = reinterpret_cast<const float4*>(x + base)[q];
      const float4 b = reinterpret_cast<const float4*>(r + base)[q];
      const float z0 = __fadd_rn(a.x, b.x), z1 = __fadd_rn(a.y, b.y), z2 = __fadd_rn(a.z, b.z),
                  z3 = __fadd_rn(a.w, b.w);
      ss += double(z0) * z0 + double(z1) * z1 + double(z2) * z2 + double(z3) * z3;
    }
  } else {
    for (int j = threadIdx.x; j < C; j += kBlock) {
      const float z = __fadd_rn(x[base + j], r[base + j]);
      ss += double(z) * z;
    }
  }
  ss = judge::ref::block_reduce(ss, judge::ref::Sum{});
  if (threadIdx.x == 0) inv_rms = 1.0 / sqrt(ss / C + double(eps));
  __syncthreads();
  const double s = inv_rms;
  if (vec4) {
    for (int q = threadIdx.x; q < C / 4; q += kBlock) {
      const float4 a = reinterpret_cast<const float4*>(x + base)[q];
      const float4 b = reinterpret_cast<const float4*>(r + base)[q];
      const float4 wq = reinterpret_cast<const float4*>(w)[q];
      float4 o;
      o.x = static_cast<float>(double(__fadd_rn(a.x, b.x)) * s * wq.x);
      o.y = static_cast<float>(double(__fadd_rn(a.y, b.y)) * s * wq.y);
      o.z = static_cast<float>(double(__fadd_rn(a.z, b.z)) * s * wq.z);
      o.w = static_cast<float>(double(__fadd_rn(a.w, b.w)) * s * wq.w);
      reinterpret_cast<float4*>(y + base)[q] = o;
    }
  } else {
    for (int j = threadIdx.x; j < C; j += kBlock)
      y[base + j] = static_cast<float>(double(__fadd_rn(x[base + j], r[base + j])) * s * w[j]);
  }
}

template <int kThreads, int kVec, int kItems>
void launch(const float* x, const float* r, const float* w, float* y, int N, int C, float eps, cudaStream_t s) {
  constexpr int rows_per_block = kBlock / kThreads;
  const unsigned blocks = static_cast<unsigned>((std::int64_t(N) + rows_per_block - 1) / rows_per_block);
  rows_kernel<kThreads, kVec, kItems><<<blocks, kBlock, 0, s>>>(x, r, w, y, N, C, eps);
  judge::ref::check_launch(kId, "rows_kernel");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  const int C = a.scalar<int>("C");
  const float eps = a.scalar<float>("eps");
  if (N <= 0 || C <= 0) return;
  const float* x = a.input<float>("x");
  const float* r = a.input<float>("residual");
  const float* w = a.input<float>("weight");
  float* y = a.output<float>("out");
  const bool vec4 = C % 4 == 0 && judge::ref::aligned16(x, r, w, y);
  if (vec4 && C <= 32 * 4 * 1) launch<32, 4, 1>(x, r, w, y, N, C, eps, s);
  else if (vec4 && C <= 32 * 4 * 4) launch<32, 4, 4>(x, r, w, y, N, C, eps, s);
  else if (vec4 && C <= 128 * 4 * 2) launch<128, 4, 2>(x, r, w, y, N, C, eps, s);
  else if (vec4 && C <= 256 * 4 * 4) launch<256, 4, 4>(x, r, w, y, N, C, eps, s);
  else if (vec4 && C <= 256 * 4 * 8) launch<256, 4, 8>(x, r, w, y, N, C, eps, s);
  else if (!vec4 && C <= 32 * 1 * 1) launch<32, 1, 1>(x, r, w, y, N, C, eps, s);
  else if (!vec4 && C <= 32 * 1 * 8) launch<32, 1, 8>(x, r, w, y, N, C, eps, s);
  else if (!vec4 && C <= 256 * 1 * 4) launch<256, 1, 4>(x, r, w, y, N, C, eps, s);
  else if (!vec4 && C <= 256 * 1 * 16) launch<256, 1, 16>(x, r, w, y, N, C, eps, s);
  else {
    long_rows_kernel<<<static_cast<unsigned>(N), kBlock, 0, s>>>(x, r, w, y, C, vec4, eps);
    judge::ref::check_launch(kId, "long_rows_kernel");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t C = a.scalar<int>("C");
  const double eps = a.scalar<float>("eps");
  const float* x = a.input<float>("x");
  const float* r = a.input<float>("residual");
  const float* w = a.input<float>("weight");
  double* y = a.output("out");
  std::vector<float> z(C);
  for (std::int64_t i = 0; i < N; ++i) {
    double ss = 0.0;
    for (std::int64_t j = 0; j < C; ++j) {
      z[j] = x[i * C + j] + r[i * C + j];  // float + float: rounded to float, as on the GPU
      ss += double(z[j]) * z[j];
    }
    const double rms = std::sqrt(ss / double(C) + eps);
    for (std::int64_t j = 0; j < C; ++j) y[i * C + j] = z[j] / rms * w[j];
  }
}

}  // namespace

JUDGE_REFERENCE(fused_residual_add_rms_norm, gpu, cpu)
