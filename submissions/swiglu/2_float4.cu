// Rung 2: 16-byte (float4) loads and stores in a grid-stride loop, with the fast intrinsics __expf and __fdividef.
// Changed since rung 1: rung 1 reached about half the copy bandwidth on an H200 (2.2 TB/s at N = 2^26): the IEEE
// division and expf are long instruction sequences, done one element per thread. Here four outputs per thread and a
// reciprocal-and-multiply division reach 4.3 TB/s. float4 loads need 16-byte aligned addresses: x2 = input + N/2 is
// aligned only when N/2 is a multiple of 4, so the vector path is taken only then; otherwise, and for the last N/2 % 4
// outputs, one element at a time.
#include <cstdint>

#include <cuda_runtime.h>

__device__ __forceinline__ float swiglu(float x1, float x2) { return __fdividef(x1, 1.0f + __expf(-x1)) * x2; }

__global__ void swiglu_kernel(const float* __restrict__ x1, const float* __restrict__ x2, float* __restrict__ out,
                              int halfN, bool vec4) {
  const int stride = gridDim.x * blockDim.x;
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int done = 0;
  if (vec4) {
    const int n4 = halfN / 4;
    for (int i = tid; i < n4; i += stride) {
      const float4 a = reinterpret_cast<const float4*>(x1)[i];
      const float4 b = reinterpret_cast<const float4*>(x2)[i];
      reinterpret_cast<float4*>(out)[i] =
          make_float4(swiglu(a.x, b.x), swiglu(a.y, b.y), swiglu(a.z, b.z), swiglu(a.w, b.w));
    }
    done = 4 * n4;
  }
  for (int i = done + tid; i < halfN; i += stride) out[i] = swiglu(x1[i], x2[i]);
}

extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  const float* x2 = input + halfN;
  const bool vec4 = (reinterpret_cast<std::uintptr_t>(input) | reinterpret_cast<std::uintptr_t>(x2) |
                     reinterpret_cast<std::uintptr_t>(output)) % 16 == 0;
  const int threads = 256;
  const int work = vec4 ? (halfN + 3) / 4 : halfN;
  int blocks = (work + threads - 1) / threads;
  if (blocks > 132 * 16) blocks = 132 * 16;  // a few waves of an H100/H200 are plenty for a grid-stride loop
  swiglu_kernel<<<blocks, threads>>>(input, x2, output, halfN, vec4);
  cudaDeviceSynchronize();
}
