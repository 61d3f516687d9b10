#include <cuda_runtime.h>

// Sort data[0, N) ascending, in place. Any algorithm will do (bitonic, merge, radix...), but N is not always a power
// of two, and one kernel launch over independent blocks will not be enough: blocks must exchange elements.
__global__ void sort_kernel(float* data, int N) {
  // TODO
}

// data points to GPU memory; the sorted result must end up in it.
extern "C" void solve(float* data, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  sort_kernel<<<blocks, threads_per_block>>>(data, N);
  cudaDeviceSynchronize();
}
