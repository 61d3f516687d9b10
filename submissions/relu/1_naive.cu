// Rung 1: one thread per element, the simplest correct kernel.
// Each thread works out its global index and, if it is inside the vector, writes max(0, x). Every element is written,
// the zeros included: the output starts as garbage, so "leave the negative ones alone" would be wrong.
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) output[i] = fmaxf(input[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  relu_kernel<<<blocks, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
