#include <cuda_runtime.h>

// One thread per element is a fine first version: thread i writes input[i] if it is positive, else 0.01 * input[i].
__global__ void leaky_relu_kernel(const float* input, float* output, int N) {
  // TODO: compute this thread's index and, if it is below N, write the leaky ReLU of input[i] to output[i].
}

// input and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;  // round up, so every element gets a thread
  leaky_relu_kernel<<<blocks, threads_per_block>>>(input, output, N);
  cudaDeviceSynchronize();
}
