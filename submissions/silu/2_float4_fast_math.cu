// Rung 2: the fast intrinsics __expf and __fdividef, and 16-byte (float4) accesses in a grid-stride loop.
// Changed since rung 1: rung 1 reached only half the copy bandwidth on an H200 (2.0 TB/s at N = 5e7), because the
// IEEE division x / y compiles to a long instruction sequence; __fdividef is a reciprocal and a multiply. (With float4
// but the IEEE division the same kernel reached 3.3 TB/s; with both changes, 4.05 TB/s, the copy ceiling.) Their error
// (at most 3% of the tolerance, see the statement) is safe here. The last N % 4 elements, or all of them when a
// pointer is not 16-byte aligned, go one at a time.
#include <cstdint>

#include <cuda_runtime.h>

__device__ __forceinline__ float silu(float x) { return __fdividef(x, 1.0f + __expf(-x)); }

__global__ void silu_kernel(const float* __restrict__ input, float* __restrict__ output, int N, bool vec4) {
  const int stride = gridDim.x * blockDim.x;
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int done = 0;
  if (vec4) {
    const int n4 = N / 4;
    for (int i = tid; i < n4; i += stride) {
      const float4 v = reinterpret_cast<const float4*>(input)[i];
      reinterpret_cast<float4*>(output)[i] = make_float4(silu(v.x), silu(v.y), silu(v.z), silu(v.w));
    }
    done = 4 * n4;
  }
  for (int i = done + tid; i < N; i += stride) output[i] = silu(input[i]);
}

extern "C" void solve(const float* input, float* output, int N) {
  const bool vec4 = (reinterpret_cast<std::uintptr_t>(input) | reinterpret_cast<std::uintptr_t>(output)) % 16 == 0;
  const int threads = 256;
  const int work = vec4 ? (N + 3) / 4 : N;
  int blocks = (work + threads - 1) / threads;
  if (blocks > 132 * 16) blocks = 132 * 16;  // a few waves of an H100/H200 are plenty for a grid-stride loop
  silu_kernel<<<blocks, threads>>>(input, output, N, vec4);
  cudaDeviceSynchronize();
}
