// Rung 1: each block of 256 threads sums 256 elements with a tree in shared memory, then one thread adds the block's
// total to the output with atomicAdd. The tree halves the active threads at every step (8 steps for 256 values);
// the output is zeroed first, because it holds garbage when solve() is called.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void reduce_tree(const float* input, float* output, int N) {
  __shared__ float partial[THREADS];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * THREADS + tid;
  partial[tid] = (i < N) ? input[i] : 0.0f;  // threads past the end contribute zero
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();  // outside the if: every thread of the block must reach it
  }
  if (tid == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
  cudaMemset(output, 0, sizeof(float));  // same (default) stream as the kernel, so it completes first
  const int blocks = (N + THREADS - 1) / THREADS;
  reduce_tree<<<blocks, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
