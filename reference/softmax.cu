// Reference for challenges/softmax: output[i] = exp(x[i] - max) / sum_j exp(x[j] - max), with the exponentials and
// their sum in double and one rounding to float at the end. Subtracting the maximum keeps exp() in range for any
// finite input. Deterministic passes (no atomics): block maxima, the global maximum, block sums, the global sum, and
// the element-wise division.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "softmax";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kMaxPartials = 1024;

// Scratch between the passes; references run one case at a time, so one copy per device suffices.
__device__ float g_block_max[kMaxPartials];
__device__ float g_max;
__device__ double g_block_sum[kMaxPartials];
__device__ double g_sum;

__global__ void block_max_kernel(const float* x, std::int64_t n) {
  float m = -INFINITY;
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kBlock)
    m = fmaxf(m, x[i]);
  const float r = judge::ref::block_reduce(m, judge::ref::Max{});
  if (threadIdx.x == 0) g_block_max[blockIdx.x] = r;
}

__global__ void global_max_kernel(int partials) {
  const float r = judge::ref::block_reduce_array(g_block_max, partials, -INFINITY, judge::ref::Max{});
  if (threadIdx.x == 0) g_max = r;
}

__global__ void block_sum_kernel(const float* x, std::int64_t n) {
  const double m = g_max;
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kBlock)
    acc += exp(double(x[i]) - m);
  const double r = judge::ref::block_reduce(acc, judge::ref::Sum{});
  if (threadIdx.x == 0) g_block_sum[blockIdx.x] = r;
}

__global__ void global_sum_kernel(int partials) {
  const double r = judge::ref::block_reduce_array(g_block_sum, partials, 0.0, judge::ref::Sum{});
  if (threadIdx.x == 0) g_sum = r;
}

__global__ void normalize_kernel(const float* x, float* y, std::int64_t n) {
  const double m = g_max;
  const double inv_sum = 1.0 / g_sum;
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kBlock)
    y[i] = static_cast<float>(exp(double(x[i]) - m) * inv_sum);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  const float* x = a.input<float>("input");
  float* y = a.output<float>("output");
  const unsigned blocks = judge::ref::grid_for(n, kBlock, kMaxPartials);
  block_max_kernel<<<blocks, kBlock, 0, s>>>(x, n);
  judge::ref::check_launch(kId, "block_max_kernel");
  global_max_kernel<<<1, kBlock, 0, s>>>(static_cast<int>(blocks));
  judge::ref::check_launch(kId, "global_max_kernel");
  block_sum_kernel<<<blocks, kBlock, 0, s>>>(x, n);
  judge::ref::check_launch(kId, "block_sum_kernel");
  global_sum_kernel<<<1, kBlock, 0, s>>>(static_cast<int>(blocks));
  judge::ref::check_launch(kId, "global_sum_kernel");
  normalize_kernel<<<judge::ref::grid_for(n), kBlock, 0, s>>>(x, y, n);
  judge::ref::check_launch(kId, "normalize_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  double m = -INFINITY;
  for (std::int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) sum += std::exp(double(x[i]) - m);
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::exp(double(x[i]) - m) / sum;
}

}  // namespace

JUDGE_REFERENCE(softmax, gpu, cpu)
