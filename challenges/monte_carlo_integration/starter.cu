#include <cuda_runtime.h>

// result[0] = (b - a) * (y_samples[0] + ... + y_samples[n_samples-1]) / n_samples. Every block can add up its own
// samples; those partial sums then have to be combined into the one output value.
__global__ void monte_carlo_kernel(const float* y_samples, float* result, float a, float b, int n_samples) {
  // TODO
}

// y_samples and result point to GPU memory. solve() must leave the finished estimate in result[0].
extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
  const int threads_per_block = 256;
  const int blocks = (n_samples + threads_per_block - 1) / threads_per_block;
  monte_carlo_kernel<<<blocks, threads_per_block>>>(y_samples, result, a, b, n_samples);
  cudaDeviceSynchronize();
}
