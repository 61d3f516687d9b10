// expect: wrong_answer
// expect-message: never written
// Confuses the side of the matrix with its number of elements: launches N threads and copies only the first N
// floats (the first row) instead of N * N. For N = 1 the two agree, so the first case to fail is the 3 x 3 example,
// where 6 of the 9 elements still hold the judge's poison: `wrong_answer`, "6 never written".
#include <cuda_runtime.h>

__global__ void copy_matrix(const float* A, float* B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) B[i] = A[i];
}

extern "C" void solve(const float* A, float* B, int N) {
  copy_matrix<<<(N + 255) / 256, 256>>>(A, B, N);
  cudaDeviceSynchronize();
}
