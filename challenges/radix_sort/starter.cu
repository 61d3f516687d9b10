#include <cuda_runtime.h>

// One pass of a least-significant-digit radix sort: move the keys of src into dst ordered by the digit
// (key >> shift) & (RADIX - 1), keeping keys with equal digits in their order in src (the pass must be stable).
// Each pass needs the bucket offsets of the whole array, so it takes more than one kernel: count, prefix-sum, scatter.
#define RADIX 256

__global__ void radix_pass_kernel(const unsigned int* src, unsigned int* dst, int N, int shift) {
  // TODO
}

// input and output point to GPU memory. Sort into output; input must stay unchanged.
extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  radix_pass_kernel<<<blocks, threads_per_block>>>(input, output, N, 0);
  cudaDeviceSynchronize();
}
