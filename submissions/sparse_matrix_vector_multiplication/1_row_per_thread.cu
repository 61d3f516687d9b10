// Rung 1: one thread per row, walking the whole row and skipping zeros. Correct for any sparsity pattern (rows may
// be empty or full) and y[i] is written for every row, zero rows included. Slow: the 32 threads of a warp read 32
// different rows, N floats apart, so each load instruction touches 32 separate memory segments.
#include <cuda_runtime.h>

__global__ void spmv(const float* A, const float* x, float* y, int M, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  const float* row = A + (size_t)i * N;
  float acc = 0.0f;
  for (int j = 0; j < N; ++j) {
    const float a = row[j];
    if (a != 0.0f) acc += a * x[j];
  }
  y[i] = acc;
}

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  spmv<<<(M + 255) / 256, 256>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
}
