#include <cuda_runtime.h>

// output[i] = input[0] + input[1] + ... + input[i] (an inclusive scan). Every output depends on all the inputs before
// it, so one kernel over independent blocks is not enough: blocks must learn the totals of the blocks before them.
__global__ void prefix_sum_kernel(const float* input, float* output, int N) {
  // TODO
}

// input and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  prefix_sum_kernel<<<blocks, threads_per_block>>>(input, output, N);
  cudaDeviceSynchronize();
}
