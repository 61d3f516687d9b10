// Rung 1: one thread per output. Thread i reads x1 = input[i] from the first half and x2 = input[N/2 + i] from the
// second, and writes silu(x1) * x2 with silu(x) = x / (1 + expf(-x)): that form never computes inf / inf (for x below
// -88.7 the denominator is infinite and silu is -0, within the tolerance of the exact value).
#include <cuda_runtime.h>

__global__ void swiglu_kernel(const float* input, float* output, int halfN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < halfN) {  // halfN, not N: there are only N / 2 outputs
    const float x1 = input[i];
    const float x2 = input[halfN + i];
    output[i] = x1 / (1.0f + expf(-x1)) * x2;
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  const int threads = 256;
  const int blocks = (halfN + threads - 1) / threads;
  swiglu_kernel<<<blocks, threads>>>(input, output, halfN);
  cudaDeviceSynchronize();
}
