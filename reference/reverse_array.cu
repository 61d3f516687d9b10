// Reference for challenges/reverse_array: the in-out buffer reversed in place. Pure data movement, so the result is
// exact. Each thread owns whole mirror pairs (i, N - 1 - i), i < N / 2, and reads both ends before writing either,
// so no two threads touch the same element. When N is a multiple of 4 (and the buffer 16-byte aligned) the pairs
// are float4s (k, N/4 - 1 - k), their lanes reversed in registers; a middle float4 (N/4 odd) is its own mirror and
// is reversed in place by one thread. Otherwise, single floats. Grid-stride loops in both cases.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "reverse_array";

__device__ __forceinline__ float4 reversed(float4 v) { return make_float4(v.w, v.z, v.y, v.x); }

// m = N / 4 float4s; pairs k < ceil(m / 2), the last being the middle float4 when m is odd.
__global__ void reverse_vec4(float4* __restrict__ x, std::int64_t m) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < (m + 1) / 2; k += stride) {
    const std::int64_t j = m - 1 - k;
    const float4 a = x[k];
    const float4 b = x[j];
    x[k] = reversed(b);
    x[j] = reversed(a);  // j == k for the middle float4: the same value, written twice by the same thread
  }
}

__global__ void reverse_scalar(float* __restrict__ x, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n / 2; i += stride) {
    const std::int64_t j = n - 1 - i;
    const float a = x[i];
    const float b = x[j];
    x[i] = b;
    x[j] = a;
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n < 2) return;
  float* x = a.output<float>("input");  // the in-out buffer, holding the generated input
  if (n % 4 == 0 && judge::ref::aligned16(x)) {
    const std::int64_t m = n / 4;
    reverse_vec4<<<judge::ref::grid_for((m + 1) / 2), judge::ref::kBlock, 0, s>>>(reinterpret_cast<float4*>(x), m);
    judge::ref::check_launch(kId, "reverse_vec4");
  } else {
    reverse_scalar<<<judge::ref::grid_for(n / 2), judge::ref::kBlock, 0, s>>>(x, n);
    judge::ref::check_launch(kId, "reverse_scalar");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("input");  // the original input
  double* y = a.output("input");
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[n - 1 - i];
}

}  // namespace

JUDGE_REFERENCE(reverse_array, gpu, cpu)
