#include <cuda_runtime.h>

// A is M x N, B is N x K, C is M x K, all row-major: element (r, c) of a matrix with W columns is at [r * W + c].
__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: compute C[row * K + col] = sum over k of A[row * N + k] * B[k * K + col] for this thread's (row, col).
}

// A, B and C point to GPU memory. solve() must leave the finished result in C.
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 threads_per_block(16, 16);                  // x runs along the columns of C, y along its rows
  const dim3 blocks((K + threads_per_block.x - 1) / threads_per_block.x,
                    (M + threads_per_block.y - 1) / threads_per_block.y);
  matmul_kernel<<<blocks, threads_per_block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
