// Reference for challenges/interleave: output[2i] = A[i], output[2i + 1] = B[i]. It moves bits only, so every
// correct kernel is bit-exact.
// It is also the speed yardstick, so every access is coalesced and wide: each step of the grid-stride loop reads two
// pairs as a float2 from A and a float2 from B (a warp reads 256 contiguous bytes of each) and writes the four
// outputs they make as one float4 (512 contiguous bytes per warp). Writing two float4s per float4 of A and B instead
// would leave each store instruction covering every other 16 bytes. Two steps are loaded before either is stored, so
// each thread keeps 32 bytes of loads in flight, as map_elementwise's float4 loop does for two inputs. Pointers not
// aligned for that (cudaMalloc's always are) take the scalar loop, as does the last pair when N is odd.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "interleave";

__global__ void interleave_pairs(const float2* __restrict__ a, const float2* __restrict__ b, float4* __restrict__ out,
                                 std::int64_t pairs) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < pairs; i += 2 * stride) {
    const std::int64_t j = i + stride;
    const float2 a0 = a[i], b0 = b[i];
    float2 a1 = a0, b1 = b0;
    if (j < pairs) {
      a1 = a[j];
      b1 = b[j];
    }
    out[i] = make_float4(a0.x, b0.x, a0.y, b0.y);
    if (j < pairs) out[j] = make_float4(a1.x, b1.x, a1.y, b1.y);
  }
}

// Elements [first, n) one at a time: the odd last element, or everything when the pointers are misaligned.
__global__ void interleave_scalar(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                                  std::int64_t first, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = first + blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    out[2 * i] = a[i];
    out[2 * i + 1] = b[i];
  }
}

bool aligned(const void* p, std::uintptr_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  float* out = a.output<float>("output");
  std::int64_t done = 0;
  if (aligned(A, 8) && aligned(B, 8) && aligned(out, 16)) {
    const std::int64_t pairs = n / 2;
    if (pairs > 0) {
      interleave_pairs<<<judge::ref::grid_for(pairs), judge::ref::kBlock, 0, s>>>(
          reinterpret_cast<const float2*>(A), reinterpret_cast<const float2*>(B), reinterpret_cast<float4*>(out),
          pairs);
      judge::ref::check_launch(kId, "interleave_pairs");
    }
    done = 2 * pairs;
  }
  if (done < n) {
    interleave_scalar<<<judge::ref::grid_for(n - done), judge::ref::kBlock, 0, s>>>(A, B, out, done, n);
    judge::ref::check_launch(kId, "interleave_scalar");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  double* out = a.output("output");
  for (std::int64_t i = 0; i < n; ++i) {
    out[2 * i] = A[i];
    out[2 * i + 1] = B[i];
  }
}

}  // namespace

JUDGE_REFERENCE(interleave, gpu, cpu)
