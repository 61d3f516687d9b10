#include <cuda_runtime.h>

// output[0] = the number of i in [0, N) with input[i] == K. Every block can count the matches among its own elements;
// those counts then have to be combined into the one output value.
__global__ void count_kernel(const int* input, int* output, int N, int K) {
  // TODO
}

// input and output point to GPU memory. solve() must leave the finished count in output[0].
extern "C" void solve(const int* input, int* output, int N, int K) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  count_kernel<<<blocks, threads_per_block>>>(input, output, N, K);
  cudaDeviceSynchronize();
}
