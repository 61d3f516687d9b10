// Reference for challenges/softmax_rows: per row, output = exp(x - max) / sum exp(x - max). A row of up to 8192
// floats is read once into registers (a warp per row up to 1024, a block per row beyond); its maximum (exact in any
// order) and its sum of exponentials in double are reduced by warp shuffles and a fixed-order sum over the row's warps.
// Each exponential is within a few float ulps of exp(x - max) for the exact difference (see exp_shifted), so the
// outputs are within float rounding of the true softmax. Longer rows fall back to a block per row that reads the row
// three times (from L2 after the first). Deterministic (no atomics).
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/rows.cuh"

namespace {

constexpr const char* kId = "softmax_rows";
constexpr int kBlock = judge::ref::kBlock;

// exp(x - m) with the float subtraction's rounding error put back: TwoSum gives d + err == x - m exactly, and
// exp(d + err) = exp(d) * (1 + err) to within err^2, far below a float ulp. Only float operations, so it costs little.
__device__ float exp_shifted(float x, float m) {
  const float d = x - m;
  const float mv = x - d;  // TwoSum of x and -m, in its subtraction form
  const float xv = d + mv;
  const float err = (x - xv) - (m - mv);
  const float e = expf(d);
  return fmaf(e, err, e);
}

// Shape (a judge::ref::RowShape): kThreads threads per row (kBlock / kThreads rows per block); each holds kItems groups
// of kVec consecutive elements (kVec = 4: float4 loads, which need N % 4 == 0 and 16-byte aligned pointers). Needs
// kThreads * kItems * kVec >= N.
template <class Shape>
__global__ void __launch_bounds__(kBlock) rows_kernel(const float* __restrict__ x, float* __restrict__ y, int M,
                                                      int N) {
  constexpr int kThreads = Shape::kThreads, kVec = Shape::kVec, kItems = Shape::kItems;
  __shared__ float max_scratch[kBlock / 32];
  __shared__ double sum_scratch[kBlock / 32];
  const auto [lane, row, live] = judge::ref::row_thread<kThreads>(M);
  const float* xr = x + row * N;
  float* yr = y + row * N;

  float v[kItems][kVec];
  judge::ref::load_row<kThreads>(xr, N, live, lane, v, -INFINITY);
  const float m = judge::ref::row_max<kThreads>(v, max_scratch);

  double s = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
    if (live && j < N) {
#pragma unroll
      for (int k = 0; k < kVec; ++k) {
        v[i][k] = exp_shifted(v[i][k], m);
        s += v[i][k];
      }
    }
  }
  const float inv = static_cast<float>(1.0 / judge::ref::row_reduce<kThreads>(s, sum_scratch, 0.0, judge::ref::Sum{}));

  judge::ref::store_row<kThreads, kVec, kItems>(yr, N, live, lane, [&](int i, int, float (&o)[kVec]) {
#pragma unroll
    for (int k = 0; k < kVec; ++k) o[k] = v[i][k] * inv;
  });
}

// Any N: one block per row, the row read three times (the maximum, the sum, the output).
__global__ void long_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
  __shared__ float row_m;
  __shared__ float row_inv;
  const float* xr = x + std::int64_t(blockIdx.x) * N;
  float* yr = y + std::int64_t(blockIdx.x) * N;
  float m = -INFINITY;
  for (int j = threadIdx.x; j < N; j += kBlock) m = fmaxf(m, xr[j]);
  m = judge::ref::block_reduce(m, judge::ref::Max{});
  if (threadIdx.x == 0) row_m = m;
  __syncthreads();
  m = row_m;
  double s = 0.0;
  for (int j = threadIdx.x; j < N; j += kBlock) s += exp_shifted(xr[j], m);
  s = judge::ref::block_reduce(s, judge::ref::Sum{});
  if (threadIdx.x == 0) row_inv = static_cast<float>(1.0 / s);
  __syncthreads();
  const float inv = row_inv;
  for (int j = threadIdx.x; j < N; j += kBlock) yr[j] = exp_shifted(xr[j], m) * inv;
}

// Row shapes by row length: float4 groups where N % 4 == 0 and the arrays are aligned, single floats otherwise.
using judge::ref::RowShape;
using Vec4Shapes = judge::ref::RowShapes<RowShape<32, 4, 1>, RowShape<32, 4, 4>, RowShape<32, 4, 8>,
                                         RowShape<128, 4, 4>, RowShape<256, 4, 8>>;
using ScalarShapes =
    judge::ref::RowShapes<RowShape<32, 1, 1>, RowShape<32, 1, 8>, RowShape<128, 1, 8>, RowShape<256, 1, 32>>;

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  if (M <= 0 || N <= 0) return;
  const float* x = a.input<float>("input");
  float* y = a.output<float>("output");
  const bool vec4 = N % 4 == 0 && judge::ref::aligned16(x, y);
  const auto kernel = [](auto shape) { return rows_kernel<decltype(shape)>; };
  if (!judge::ref::launch_rows<Vec4Shapes, ScalarShapes>(kId, "rows_kernel", vec4, N, M, s, kernel, x, y, M, N)) {
    long_rows_kernel<<<static_cast<unsigned>(M), kBlock, 0, s>>>(x, y, N);
    judge::ref::check_launch(kId, "long_rows_kernel");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  for (std::int64_t r = 0; r < M; ++r) {
    const float* xr = x + r * N;
    double m = -INFINITY;
    for (std::int64_t j = 0; j < N; ++j) m = xr[j] > m ? xr[j] : m;
    double sum = 0.0;
    for (std::int64_t j = 0; j < N; ++j) sum += std::exp(double(xr[j]) - m);
    for (std::int64_t j = 0; j < N; ++j) y[r * N + j] = std::exp(double(xr[j]) - m) / sum;
  }
}

}  // namespace

JUDGE_REFERENCE(softmax_rows, gpu, cpu)
