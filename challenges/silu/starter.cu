#include <cuda_runtime.h>

// One thread per element: thread i computes output[i] = input[i] / (1 + exp(-input[i])).
__global__ void silu_kernel(const float* input, float* output, int N) {
  // TODO
}

// input and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  silu_kernel<<<blocks, threads_per_block>>>(input, output, N);
  cudaDeviceSynchronize();
}
