// Rung 1: one thread per pair, the simplest correct kernel.
// Thread i copies A[i] to output[2 * i] and B[i] to output[2 * i + 1]: the output has twice as many elements as each
// input, so its index is twice the thread's. The grid is rounded up to cover all N pairs.
#include <cuda_runtime.h>

__global__ void interleave_kernel(const float* A, const float* B, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    output[2 * i] = A[i];      // even positions come from A
    output[2 * i + 1] = B[i];  // odd positions from B
  }
}

extern "C" void solve(const float* A, const float* B, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;  // rounded up: N = 1 still gets one block
  interleave_kernel<<<blocks, threads>>>(A, B, output, N);
  cudaDeviceSynchronize();
}
