// expect: accepted
// judge-command: submit
// The simplest correct dot product: every thread adds its own product straight into result with atomicAdd. It is
// slow (10^8 atomics on one address at the large benchmark) and its sum is a single running float sum taken in
// whatever order the atomics land, the least accurate order there is: at N = 10^8 it errs by up to about 3 against
// the double-precision reference. It is correct all the same, and LeetGPU accepts it, so the tolerance (atol 10 at
// that size) is set to accept it here too.
#include <cuda_runtime.h>

__global__ void dot_atomic(const float* A, const float* B, float* result, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(result, A[i] * B[i]);
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
  cudaMemset(result, 0, sizeof(float));
  dot_atomic<<<(N + 255) / 256, 256>>>(A, B, result, N);
  cudaDeviceSynchronize();
}
