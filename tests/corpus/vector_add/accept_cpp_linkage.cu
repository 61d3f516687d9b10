// expect: accepted
// A plain C++ solve(): no extern "C" and no solve.h. The judge calls solve() from a function in the same translation
// unit, so its linkage does not matter, and such a solution must not be turned away.
#include <cuda_runtime.h>

__global__ void vector_add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

void solve(const float* A, const float* B, float* C, int N) {
  vector_add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
