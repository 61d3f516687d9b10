// expect: wrong_answer
// expect-message: elements wrong
// Reads both vectors as float4 but only the N / 4 whole chunks: when N is not a multiple of 4, the last N % 4
// products are never added. On random inputs a dropped product can be small enough to hide inside the tolerance,
// but ones_4099 (every product exactly 1) makes the result 4096 instead of 4099, every time.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dot_vec4(const float4* A, const float4* B, float* result, int n4) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float v = 0.0f;
  if (i < n4) {
    const float4 a = A[i], b = B[i];
    v = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
  cudaMemset(result, 0, sizeof(float));
  const int n4 = N / 4;  // the mistake: elements 4 * n4 .. N - 1 are never read
  if (n4 > 0)
    dot_vec4<<<(n4 + THREADS - 1) / THREADS, THREADS>>>(reinterpret_cast<const float4*>(A),
                                                         reinterpret_cast<const float4*>(B), result, n4);
  cudaDeviceSynchronize();
}
