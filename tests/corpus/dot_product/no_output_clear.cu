// expect: wrong_answer
// expect-message: NaN
// Adds every block's partial sum into result with atomicAdd, but never sets result to 0 first, so the first
// atomicAdd adds to whatever the output held on entry. The judge fills outputs with a NaN pattern before each call:
// NaN + anything is NaN, and NaN never passes where the reference is finite. (Without the poison it would add the
// previous call's result, or stale memory.)
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dot_blocks(const float* A, const float* B, float* result, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? A[i] * B[i] : 0.0f;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
  // missing: cudaMemset(result, 0, sizeof(float));
  dot_blocks<<<(N + THREADS - 1) / THREADS, THREADS>>>(A, B, result, N);
  cudaDeviceSynchronize();
}
