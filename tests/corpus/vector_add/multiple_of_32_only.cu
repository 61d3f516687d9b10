// expect: wrong_answer
// judge-args: --case n33 --case n1000003
// Correct only when N is a multiple of 32: the grid is rounded down.
#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  C[i] = A[i] + B[i];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  if (N >= 32) add<<<N / 32, 32>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
