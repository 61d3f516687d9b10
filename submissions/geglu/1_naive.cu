// Rung 1: one thread per output. Thread i reads the linear part x1 = input[i] from the first half and the gate
// x2 = input[N/2 + i] from the second, and writes x1 * gelu(x2) with the exact GELU, 0.5 x (1 + erf(x / sqrt 2)).
// (The tanh approximation of GELU is off by up to 4.7e-4, too much for the tolerance once multiplied by x1.)
#include <cuda_runtime.h>

__global__ void geglu_kernel(const float* input, float* output, int halfN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < halfN) {  // halfN, not N: there are only N / 2 outputs
    const float x1 = input[i];
    const float x2 = input[halfN + i];
    const float gelu = 0.5f * x2 * (1.0f + erff(x2 * 0.70710678f));
    output[i] = x1 * gelu;
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  const int threads = 256;
  const int blocks = (halfN + threads - 1) / threads;
  geglu_kernel<<<blocks, threads>>>(input, output, halfN);
  cudaDeviceSynchronize();
}
