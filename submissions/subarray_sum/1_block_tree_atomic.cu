// Rung 1: one thread per element of the range input[S..E] (E included, so E - S + 1 elements), a 256-element tree
// in shared memory per block, and one atomicAdd per block into output, which is zeroed first. Threads past E add 0.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_sums(const int* input, int* output, int S, int E) {
  __shared__ int partial[THREADS];
  const int i = S + blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i <= E ? input[i] : 0;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const int* input, int* output, int N, int S, int E) {
  const int count = E - S + 1;  // S and E are both inside the range
  cudaMemset(output, 0, sizeof(int));
  block_sums<<<(count + THREADS - 1) / THREADS, THREADS>>>(input, output, S, E);
  cudaDeviceSynchronize();
}
