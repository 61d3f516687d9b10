// expect: input_modified
// expect-message: modified input A
// Uses an input as scratch space.
#include <cuda_runtime.h>
__global__ void add(float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    A[i] += B[i];
    C[i] = A[i];
  }
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(const_cast<float*>(A), B, C, N);
  cudaDeviceSynchronize();
}
