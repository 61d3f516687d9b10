// Rung 1: one thread per element, the simplest correct kernel.
// Each thread works out its global index and, if it is inside the vector, writes fminf(fmaxf(x, lo), hi). Every
// element is written, those already inside [lo, hi] included: the output starts as garbage.
#include <cuda_runtime.h>

__global__ void clip_kernel(const float* input, float* output, float lo, float hi, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) output[i] = fminf(fmaxf(input[i], lo), hi);  // raise to lo first, then cap at hi
}

extern "C" void solve(const float* input, float* output, float lo, float hi, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  clip_kernel<<<blocks, threads>>>(input, output, lo, hi, N);
  cudaDeviceSynchronize();
}
