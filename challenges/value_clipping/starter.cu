#include <cuda_runtime.h>

// One thread per element is a fine first version: thread i writes input[i] limited to the range [lo, hi].
__global__ void clip_kernel(const float* input, float* output, float lo, float hi, int N) {
  // TODO: compute this thread's index and, if it is below N, write min(max(input[i], lo), hi) to output[i].
}

// input and output point to GPU memory; lo and hi are plain values. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, float lo, float hi, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;  // round up, so every element gets a thread
  clip_kernel<<<blocks, threads_per_block>>>(input, output, lo, hi, N);
  cudaDeviceSynchronize();
}
