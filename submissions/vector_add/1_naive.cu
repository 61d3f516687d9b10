// Rung 1: one thread per element, the simplest correct kernel.
// Each thread works out its global index and, if the index is inside the vector, adds one pair of elements;
// the grid is rounded up to whole blocks, so the bounds check is what keeps the extra threads from writing.
#include <cuda_runtime.h>

__global__ void vector_add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  vector_add<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
