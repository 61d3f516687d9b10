// Reference for challenges/rms_normalization: output = gamma * x / sqrt(mean(x^2) + eps) + beta over one vector.
// Two kernels: block partial sums of squares in double (float4 grid-stride loads), the last block to finish adding the
// partials in index order (deterministic, whichever block that is) into the scale gamma / rms; then the element-wise
// pass in double, walking the vector backwards so that the end the first kernel read last is still in L2.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "rms_normalization";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kMaxPartials = 1024;

// Scratch between the kernels; references run one case at a time, so one copy per device suffices.
__device__ double g_partial[kMaxPartials];
__device__ unsigned g_blocks_done = 0;  // back to 0 at the end of every sum_squares_kernel
__device__ double g_scale;              // gamma / sqrt(mean(x^2) + eps)

__global__ void sum_squares_kernel(const float* __restrict__ x, std::int64_t n, bool vec4, float gamma, float eps) {
  __shared__ bool last;
  const std::int64_t stride = std::int64_t(gridDim.x) * kBlock;
  const std::int64_t first = std::int64_t(blockIdx.x) * kBlock + threadIdx.x;
  double acc = 0.0;
  if (vec4) {
    const std::int64_t nv = n / 4;
    for (std::int64_t q = first; q < nv; q += stride) {
      const float4 v = reinterpret_cast<const float4*>(x)[q];
      acc += double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z + double(v.w) * v.w;
    }
    if (blockIdx.x == 0)
      for (std::int64_t i = nv * 4 + threadIdx.x; i < n; i += kBlock) acc += double(x[i]) * x[i];
  } else {
    for (std::int64_t i = first; i < n; i += stride) acc += double(x[i]) * x[i];
  }
  const double block_sum = judge::ref::block_reduce(acc, judge::ref::Sum{});
  if (threadIdx.x == 0) {
    g_partial[blockIdx.x] = block_sum;
    __threadfence();  // the partial is visible before the count says so
    last = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double total = 0.0;
  for (unsigned i = threadIdx.x; i < gridDim.x; i += kBlock) total += __ldcg(&g_partial[i]);
  total = judge::ref::block_reduce(total, judge::ref::Sum{});
  if (threadIdx.x == 0) {
    g_scale = double(gamma) / sqrt(total / double(n) + double(eps));
    g_blocks_done = 0;
  }
}

__global__ void normalize_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n, bool vec4,
                                 float beta) {
  const double scale = g_scale, shift = beta;
  const std::int64_t stride = std::int64_t(gridDim.x) * kBlock;
  const std::int64_t first = std::int64_t(blockIdx.x) * kBlock + threadIdx.x;
  if (vec4) {
    const std::int64_t nv = n / 4;
    for (std::int64_t k = first; k < nv; k += stride) {
      const std::int64_t q = nv - 1 - k;
      const float4 v = reinterpret_cast<const float4*>(x)[q];
      float4 o;
      o.x = static_cast<float>(fma(double(v.x), scale, shift));
      o.y = static_cast<float>(fma(double(v.y), scale, shift));
      o.z = static_cast<float>(fma(double(v.z), scale, shift));
      o.w = static_cast<float>(fma(double(v.w), scale, shift));
      reinterpret_cast<float4*>(y)[q] = o;
    }
    if (first < n - nv * 4) y[nv * 4 + first] = static_cast<float>(fma(double(x[nv * 4 + first]), scale, shift));
  } else {
    for (std::int64_t k = first; k < n; k += stride) {
      const std::int64_t i = n - 1 - k;
      y[i] = static_cast<float>(fma(double(x[i]), scale, shift));
    }
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  const float gamma = a.scalar<float>("gamma");
  const float beta = a.scalar<float>("beta");
  const float eps = a.scalar<float>("eps");
  const float* x = a.input<float>("input");
  float* y = a.output<float>("output");
  const bool vec4 = judge::ref::aligned16(x, y);
  const std::int64_t items = vec4 ? n / 4 : n;
  sum_squares_kernel<<<judge::ref::grid_for(items, kBlock, kMaxPartials), kBlock, 0, s>>>(x, n, vec4, gamma, eps);
  judge::ref::check_launch(kId, "sum_squares_kernel");
  normalize_kernel<<<judge::ref::grid_for(items), kBlock, 0, s>>>(x, y, n, vec4, beta);
  judge::ref::check_launch(kId, "normalize_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const double gamma = a.scalar<float>("gamma");
  const double beta = a.scalar<float>("beta");
  const double eps = a.scalar<float>("eps");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) sum += double(x[i]) * x[i];
  const double rms = std::sqrt(sum / double(n) + eps);
  for (std::int64_t i = 0; i < n; ++i) y[i] = gamma * x[i] / rms + beta;
}

}  // namespace

JUDGE_REFERENCE(rms_normalization, gpu, cpu)
