// expect: runtime_error
// expect-message: kernel launch inside solve()
// 2048 threads per block is over every GPU's limit: the launch fails and nothing runs (CUDA 13 reports
// cudaErrorInvalidValue, older toolkits cudaErrorInvalidConfiguration).
#include <cuda_runtime.h>
__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 2047) / 2048, 2048>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
