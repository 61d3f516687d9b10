#include <cuda_runtime.h>

// histogram[b] = the number of i in [0, N) with input[i] == b, for every bin b in [0, num_bins). Many threads will
// want to add to the same bin at the same time.
__global__ void histogram_kernel(const int* input, int* histogram, int N, int num_bins) {
  // TODO
}

// input and histogram point to GPU memory. solve() must leave every one of the num_bins counts in histogram.
extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  histogram_kernel<<<blocks, threads_per_block>>>(input, histogram, N, num_bins);
  cudaDeviceSynchronize();
}
