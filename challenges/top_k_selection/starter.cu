#include <cuda_runtime.h>

// Write the k largest values of input[0, N) to output[0, k), largest first. Values may repeat: a value that occurs
// several times is counted as many times. The k-th largest depends on the whole input, so one pass over independent
// blocks is not enough.
__global__ void top_k_kernel(const float* input, float* output, int N, int k) {
  // TODO
}

// input and output point to GPU memory; output has room for k floats.
extern "C" void solve(const float* input, float* output, int N, int k) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  top_k_kernel<<<blocks, threads_per_block>>>(input, output, N, k);
  cudaDeviceSynchronize();
}
