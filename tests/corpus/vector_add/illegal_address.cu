// expect: runtime_error
// expect-message: cudaErrorIllegalAddress
// Dereferences a wild pointer on the device.
#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  float* wild = reinterpret_cast<float*>(0x10);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) wild[i] = A[i] + B[i];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
