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

// Shape (a judge::ref::RowShape): kThreads threads per row (kBlock / kThreads rows per block); each holds kItems groups
// of kVec consecutive elements of z (kVec = 4: float4 loads, which need C % 4 == 0 and 16-byte aligned pointers).
// Needs kThreads * kItems * kVec >= C.
template <class Shape>
__global__ void __launch_bounds__(kBlock) rows_kernel(const float* __restrict__ x, const float* __restrict__ r,
                                                      const float* __restrict__ w, float* __restrict__ y, int n_rows,
                                                      int C, float eps) {
  constexpr int kThreads = Shape::kThreads, kVec = Shape::kVec, kItems = Shape::kItems;
  __shared__ double scratch[kBlock / 32];
  const auto [lane, row, live] = judge::ref::row_thread<kThreads>(n_rows);

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

  judge::ref::store_row<kThreads, kVec, kItems>(y + row * C, C, live, lane, [&](int i, int j, float (&o)[kVec]) {
    float wg[kVec];
    judge::ref::load_group(w + j, wg);
#pragma unroll
    for (int k = 0; k < kVec; ++k) o[k] = static_cast<float>(double(z[i][k]) * inv_rms * wg[k]);
  });
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

// Float4 row shapes: layer normalisation's (judge::ref::NormVec4Shapes), then rows up to 8192.
using judge::ref::RowShape;
using Vec4Shapes = judge::ref::RowShapes<RowShape<32, 4, 1>, RowShape<32, 4, 4>, RowShape<128, 4, 2>,
                                         RowShape<256, 4, 4>, RowShape<256, 4, 8>>;

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
  const auto kernel = [](auto shape) { return rows_kernel<decltype(shape)>; };
  if (!judge::ref::launch_rows<Vec4Shapes, judge::ref::NormScalarShapes>(kId, "rows_kernel", vec4, C, N, s, kernel, x,
                                                                         r, w, y, N, C, eps)) {
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
