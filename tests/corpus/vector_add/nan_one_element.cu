// expect: wrong_answer
// expect-message: NaN
// Correct except for one element, which is a quiet NaN. The comparison |got - ref| <= tol is false for NaN, and the
// judge never lets NaN/Inf pass where the reference is finite, so the message counts it as such. (It is not the
// poison pattern, so it is not "never written".)
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = i == N / 2 ? __int_as_float(0x7fc00000) : A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
