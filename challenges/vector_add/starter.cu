#include <cuda_runtime.h>

// One thread per element is a fine first version: thread i computes C[i].
__global__ void vector_add_kernel(const float* A, const float* B, float* C, int N) {
  // TODO: compute this thread's index and, if it is below N, write C[i] = A[i] + B[i].
}

// A, B and C point to GPU memory. solve() must leave the finished result in C.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;  // round up, so every element gets a thread
  vector_add_kernel<<<blocks, threads_per_block>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
