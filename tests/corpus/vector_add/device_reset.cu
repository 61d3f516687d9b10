// expect: runtime_error
// expect-message: context
// Computes the right answer, then "cleans up" with cudaDeviceReset(), which destroys the primary context: every
// buffer, stream and handle of the judge in this process dies with it. That is the submission's fault, a
// `runtime_error` that says the context was destroyed, not a judge failure.
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
  cudaDeviceReset();
}
