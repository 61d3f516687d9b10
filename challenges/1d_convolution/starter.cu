#include <cuda_runtime.h>

// output[i] = sum over j in [0, kernel_size) of input[i + j] * kernel[j], for i in [0, input_size - kernel_size + 1).
// The kernel is not flipped, and there is no padding: only positions where the whole kernel fits produce an output.
__global__ void convolution_1d_kernel(const float* input, const float* kernel, float* output, int input_size,
                                      int kernel_size) {
  // TODO: one thread per output is a fine first version.
}

// input, kernel and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, const float* kernel, float* output, int input_size, int kernel_size) {
  const int output_size = input_size - kernel_size + 1;
  const int threads_per_block = 256;
  const int blocks = (output_size + threads_per_block - 1) / threads_per_block;
  convolution_1d_kernel<<<blocks, threads_per_block>>>(input, kernel, output, input_size, kernel_size);
  cudaDeviceSynchronize();
}
