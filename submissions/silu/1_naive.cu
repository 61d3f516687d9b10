// Rung 1: one thread per element, output = x / (1 + expf(-x)).
// This form never computes inf / inf: for x below -88.7, expf(-x) is infinite and x / inf is -0, within the
// tolerance of the exact value; for large x, expf(-x) underflows to 0 and the result is x.
#include <cuda_runtime.h>

__global__ void silu_kernel(const float* input, float* output, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float x = input[i];
    output[i] = x / (1.0f + expf(-x));
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  silu_kernel<<<blocks, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
