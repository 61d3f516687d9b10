// expect: timeout
// judge-args: --timeout 3
// A kernel that never finishes.
#include <cuda_runtime.h>
__global__ void spin(float* C) {
  volatile int forever = 1;
  while (forever) {
  }
  C[0] = 0;
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  spin<<<1, 1>>>(C);
  cudaDeviceSynchronize();
}
