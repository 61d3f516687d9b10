#include <cuda_runtime.h>

// output[i] = sum of values[j] over the indices j < i of i's segment; a segment starts wherever flags[j] = 1
// (flags[0] = 1 always), so the first output of every segment is 0. Every output can depend on values in earlier
// blocks: a segment may cross block boundaries, so blocks must pass on what is carried into the next one.
__global__ void segmented_scan_kernel(const float* values, const int* flags, float* output, int N) {
  // TODO
}

// values, flags and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* values, const int* flags, float* output, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  segmented_scan_kernel<<<blocks, threads_per_block>>>(values, flags, output, N);
  cudaDeviceSynchronize();
}
