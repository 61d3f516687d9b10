// expect: output_not_written
// Computes into a scratch buffer and forgets to copy it back.
#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  float* scratch = nullptr;
  cudaMalloc(&scratch, sizeof(float) * N);
  add<<<(N + 255) / 256, 256>>>(A, B, scratch, N);
  cudaDeviceSynchronize();
  cudaFree(scratch);
}
