#include <cuda_runtime.h>

// y[i] = sum over j < N of A[i * N + j] * x[j]. A is M x N, row-major, stored densely: only nnz of its elements are
// non-zero, but all M * N are there to read.
__global__ void spmv_kernel(const float* A, const float* x, float* y, int M, int N, int nnz) {
  // TODO: one thread per row is a fine first version.
}

// A, x and y point to GPU memory. solve() must leave the finished result in y.
extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const int threads_per_block = 256;
  const int blocks = (M + threads_per_block - 1) / threads_per_block;
  spmv_kernel<<<blocks, threads_per_block>>>(A, x, y, M, N, nnz);
  cudaDeviceSynchronize();
}
