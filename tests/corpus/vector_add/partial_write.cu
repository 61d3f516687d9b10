// expect: wrong_answer
// expect-message: never written
// Only the first half of C is computed (rounded up, so N = 1 is right and the first failure is a real partial write,
// not an untouched output). The rest still holds the judge's poison pattern, which the checker counts as
// "never written": `wrong_answer` (`output_not_written` is only for an output with no element written at all).
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  int half = (N + 1) / 2;
  add<<<(half + 255) / 256, 256>>>(A, B, C, half);
  cudaDeviceSynchronize();
}
