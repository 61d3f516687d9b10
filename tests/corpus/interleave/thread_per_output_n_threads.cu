// expect: wrong_answer
// expect-message: never written
// One thread per output element, output[j] = (j even ? A : B)[j / 2], but launched with the starter's grid and bound
// for N threads instead of 2 * N: only the first half of the output is written (the interleaving of the first half of
// A and B), and output[N, 2N) keeps the judge's poison. n1 already leaves output[1] unwritten.
#include <cuda_runtime.h>

__global__ void interleave_kernel(const float* A, const float* B, float* output, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < N) output[j] = (j % 2 == 0) ? A[j / 2] : B[j / 2];
}

extern "C" void solve(const float* A, const float* B, float* output, int N) {
  interleave_kernel<<<(N + 255) / 256, 256>>>(A, B, output, N);
  cudaDeviceSynchronize();
}
