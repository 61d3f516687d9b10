#include <cuda_runtime.h>

// C[i * K + j] = sum over n < N of A[i * N + n] * B[n * K + j]. A is M x N, row-major, stored densely: only nnz of its
// elements are non-zero, but all M * N are there to read. B is N x K and C is M x K, both row-major.
__global__ void spmm_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: one thread per element of C (row blockIdx.y * blockDim.y + threadIdx.y, column blockIdx.x * blockDim.x +
  // threadIdx.x) is a fine first version.
}

// A, B, C are device pointers. solve() must leave the finished result in C.
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K, int nnz) {
  const dim3 threads_per_block(16, 16);  // x runs along the columns of C, y along its rows
  const dim3 blocks((K + threads_per_block.x - 1) / threads_per_block.x,
                    (M + threads_per_block.y - 1) / threads_per_block.y);
  spmm_kernel<<<blocks, threads_per_block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
