#include <cuda_runtime.h>

// C[0, M + N) = A and B merged in ascending order; A and B are each sorted already. One thread per output needs to
// know which element of A or B belongs there: a binary search can tell (how many elements of the other array go
// before this one?), but mind values that occur in both arrays.
__global__ void merge_kernel(const float* A, const float* B, float* C, int M, int N) {
  // TODO
}

// A, B, C are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* A, const float* B, float* C, int M, int N) {
  const int threads_per_block = 256;
  const int blocks = (M + N + threads_per_block - 1) / threads_per_block;
  merge_kernel<<<blocks, threads_per_block>>>(A, B, C, M, N);
  cudaDeviceSynchronize();
}
