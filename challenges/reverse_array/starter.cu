#include <cuda_runtime.h>

// Reverse input in place. Careful: threads read and write the same array. One thread per pair (i, N - 1 - i),
// reading both values before writing either, avoids the races.
__global__ void reverse_array(float* input, int N) {
  // TODO
}

// input points to GPU memory: it holds the array on entry and must hold the reversed array when solve() returns.
extern "C" void solve(float* input, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  reverse_array<<<blocks, threads_per_block>>>(input, N);
  cudaDeviceSynchronize();
}
