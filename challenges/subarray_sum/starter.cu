#include <cuda_runtime.h>

// output[0] = input[S] + ... + input[E], both ends included. Every block can add up its share of the range; the
// block sums then have to be combined into the one output value.
__global__ void subarray_sum_kernel(const int* input, int* output, int N, int S, int E) {
  // TODO
}

// input and output point to GPU memory; output holds a single int, garbage on entry.
extern "C" void solve(const int* input, int* output, int N, int S, int E) {
  cudaMemset(output, 0, sizeof(int));  // start the total at zero if your kernel accumulates into it
  const int threads_per_block = 256;
  const int blocks = (E - S + 1 + threads_per_block - 1) / threads_per_block;
  subarray_sum_kernel<<<blocks, threads_per_block>>>(input, output, N, S, E);
  cudaDeviceSynchronize();
}
