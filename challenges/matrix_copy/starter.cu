#include <cuda_runtime.h>

// A and B hold N x N floats each, row after row, so the matrix can be treated as one array of total = N * N floats.
__global__ void copy_matrix_kernel(const float* A, float* B, int total) {
  // TODO: compute this thread's index and, if it is below total, copy A[i] into B[i].
}

// A and B point to GPU memory. solve() must leave the finished copy in B.
extern "C" void solve(const float* A, float* B, int N) {
  const int total = N * N;  // N is the side of the matrix, not the number of elements
  const int threads_per_block = 256;
  const int blocks = (total + threads_per_block - 1) / threads_per_block;  // round up: every element gets a thread
  copy_matrix_kernel<<<blocks, threads_per_block>>>(A, B, total);
  cudaDeviceSynchronize();
}
