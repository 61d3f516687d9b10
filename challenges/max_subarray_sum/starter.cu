#include <cuda_runtime.h>

// output[0] = the largest sum of window_size consecutive elements of input (windows start at 0 .. N - window_size).
// The answer can be negative. Summing each window from scratch is simple but slow; the window sums differ by
// input[i + window_size] - input[i] from one start to the next, or by prefix sums: S(i) = P[i + window_size] - P[i].
__global__ void max_subarray_sum_kernel(const int* input, int* output, int N, int window_size) {
  // TODO
}

// input and output point to GPU memory; output holds a single int, garbage on entry.
extern "C" void solve(const int* input, int* output, int N, int window_size) {
  const int windows = N - window_size + 1;
  const int threads_per_block = 256;
  const int blocks = (windows + threads_per_block - 1) / threads_per_block;
  max_subarray_sum_kernel<<<blocks, threads_per_block>>>(input, output, N, window_size);
  cudaDeviceSynchronize();
}
