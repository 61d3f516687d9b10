// Rung 1: one thread per element writes a 1 where input[i] == K and a 0 elsewhere. Each block of 256 threads adds up
// its 0s and 1s in shared memory (a tree that halves the number of active threads each step), and thread 0 adds the
// block's count to output with atomicAdd. output is set to zero first: its contents on entry are garbage.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void count_blocks(const int* input, int* output, int N, int K) {
  __shared__ int partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = (i < N && input[i] == K) ? 1 : 0;  // threads past the end count nothing
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0 && partial[0] > 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int K) {
  cudaMemset(output, 0, sizeof(int));
  const int blocks = (N + THREADS - 1) / THREADS;
  count_blocks<<<blocks, THREADS>>>(input, output, N, K);
  cudaDeviceSynchronize();
}
