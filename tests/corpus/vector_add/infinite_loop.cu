// expect: timeout
// judge-args: --timeout 3
// A kernel that never finishes. (A loop with no side effects may be deleted by the compiler; clock64() is a
// volatile read, so this one stays.)
#include <cuda_runtime.h>
__global__ void spin(float* C) {
  long long start = clock64();
  while (clock64() >= start) {
  }
  C[0] = 0;
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  spin<<<1, 1>>>(C);
  cudaDeviceSynchronize();
}
