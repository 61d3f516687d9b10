// Rung 1: one thread per element, the simplest correct kernel.
// Each thread works out its global index and, if it is inside the vector, writes x for positive x and 0.01f * x
// otherwise. The slope is the float literal 0.01f: written as 1 / 100 it would be integer division, i.e. 0.
#include <cuda_runtime.h>

__global__ void leaky_relu_kernel(const float* input, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float x = input[i];
    output[i] = x > 0.0f ? x : 0.01f * x;
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  leaky_relu_kernel<<<blocks, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
