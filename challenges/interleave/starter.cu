#include <cuda_runtime.h>

// One thread per pair is a fine first version: thread i copies A[i] and B[i] to their places in the output.
__global__ void interleave_kernel(const float* A, const float* B, float* output, int N) {
  // TODO: compute this thread's index i and, if it is below N, write A[i] to output[2 * i] and B[i] to
  // output[2 * i + 1].
}

// A, B and output point to GPU memory; output holds 2 * N floats. solve() must leave the finished result in output.
extern "C" void solve(const float* A, const float* B, float* output, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;  // round up, so every pair gets a thread
  interleave_kernel<<<blocks, threads_per_block>>>(A, B, output, N);
  cudaDeviceSynchronize();
}
