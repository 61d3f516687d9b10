// expect: memory_violation
// expect-message: before the start of C
// Correct, plus one store to C[-1] (an off-by-one in the other direction, e.g. a halo cell). C sits between guard
// regions filled with a seeded pattern; the changed byte in the front guard is a memory violation.
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
  if (i == 0) C[-1] = 1234.5f;
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
