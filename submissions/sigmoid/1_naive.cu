// Rung 1: one thread per element, the simplest correct kernel.
// 1 / (1 + expf(-x)) is safe for every finite x: for very negative x, expf(-x) overflows to +inf and 1 / (1 + inf)
// is 0, the right limit. (The equivalent expf(x) / (1 + expf(x)) is not: above x = 88.72 it is inf / inf = NaN.)
#include <cuda_runtime.h>

#include <math.h>

__global__ void sigmoid_kernel(const float* X, float* Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i] = 1.0f / (1.0f + expf(-X[i]));
}

extern "C" void solve(const float* X, float* Y, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  sigmoid_kernel<<<blocks, threads>>>(X, Y, N);
  cudaDeviceSynchronize();
}
