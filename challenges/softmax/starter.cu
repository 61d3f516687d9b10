#include <cuda_runtime.h>

// output[i] = exp(input[i] - max) / sum_j exp(input[j] - max). You will likely need more than one kernel (or pass):
// the maximum and the sum both depend on the whole input.
__global__ void softmax_kernel(const float* input, float* output, int N) {
  // TODO
}

// input and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  softmax_kernel<<<blocks, threads_per_block>>>(input, output, N);
  cudaDeviceSynchronize();
}
