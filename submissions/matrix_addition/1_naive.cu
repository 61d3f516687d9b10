// Rung 1: one thread per element, the simplest correct kernel.
// The matrices are N x N floats stored row after row, so element (i, j) sits at the same index i * N + j in A, B
// and C, and the sum can run over one flat array of N * N elements: thread k adds pair k. The grid is rounded up to
// whole blocks; the bounds check keeps the extra threads of the last block from writing.
#include <cuda_runtime.h>

__global__ void matrix_add(const float* A, const float* B, float* C, int total) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < total) C[k] = A[k] + B[k];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int total = N * N;  // N is the side: there are N * N elements
  const int threads = 256;
  const int blocks = (total + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  matrix_add<<<blocks, threads>>>(A, B, C, total);
  cudaDeviceSynchronize();
}
