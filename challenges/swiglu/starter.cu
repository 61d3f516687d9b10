#include <cuda_runtime.h>

// One thread per output: thread i reads x1 = input[i] and x2 = input[halfN + i] and writes
// output[i] = x1 / (1 + exp(-x1)) * x2.
__global__ void swiglu_kernel(const float* input, float* output, int halfN) {
  // TODO
}

// input (N floats) and output (N / 2 floats) point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  const int threads_per_block = 256;
  const int blocks = (halfN + threads_per_block - 1) / threads_per_block;
  swiglu_kernel<<<blocks, threads_per_block>>>(input, output, halfN);
  cudaDeviceSynchronize();
}
