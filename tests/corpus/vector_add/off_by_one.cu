// expect: wrong_answer
// expect-message: 1 never written
// judge-args: --case n33 --case n4097
// The classic bounds bug: the last element is skipped. (For N = 1 nothing is written at all, which is the
// output_not_written verdict, so the cases named above are ones with something to get right.)
#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N - 1) C[i] = A[i] + B[i];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
