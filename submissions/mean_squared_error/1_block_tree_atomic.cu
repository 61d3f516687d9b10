// Rung 1: one thread per element computes its squared difference. Each block of 256 threads adds up its squares in
// shared memory (a tree that halves the number of active threads each step), and thread 0 adds the block's total,
// already divided by N, to mse with atomicAdd. mse is set to zero first: its contents on entry are garbage.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void mse_blocks(const float* predictions, const float* targets, float* mse, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float sq = 0.0f;  // threads past the end contribute zero
  if (i < N) {
    const float d = predictions[i] - targets[i];
    sq = d * d;
  }
  partial[threadIdx.x] = sq;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(mse, partial[0] / N);
}

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
  cudaMemset(mse, 0, sizeof(float));
  const int blocks = (N + THREADS - 1) / THREADS;
  mse_blocks<<<blocks, THREADS>>>(predictions, targets, mse, N);
  cudaDeviceSynchronize();
}
