// expect: accepted
// LeetGPU's CUDA starter until mid-2025: `#include "solve.h"` and a solve() without extern "C". The judge generates
// that solve.h (the CUDA headers, <cstdint>, <cstddef>, and solve() declared extern "C", whose linkage the
// definition below inherits), so old solutions run unchanged.
#include "solve.h"

__global__ void vector_add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

// A, B, C are device pointers
void solve(const float* A, const float* B, float* C, int N) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  vector_add<<<blocksPerGrid, threadsPerBlock>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
