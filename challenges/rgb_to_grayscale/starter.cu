#include <cuda_runtime.h>

// One thread per pixel: thread i reads R, G, B at input[3 * i], input[3 * i + 1], input[3 * i + 2] and writes
// output[i] = 0.299 R + 0.587 G + 0.114 B.
__global__ void rgb_to_grayscale_kernel(const float* input, float* output, int width, int height) {
  // TODO
}

// input (height * width * 3 floats) and output (height * width floats) point to GPU memory. solve() must leave the
// finished result in output.
extern "C" void solve(const float* input, float* output, int width, int height) {
  const int total_pixels = width * height;
  const int threads_per_block = 256;
  const int blocks = (total_pixels + threads_per_block - 1) / threads_per_block;
  rgb_to_grayscale_kernel<<<blocks, threads_per_block>>>(input, output, width, height);
  cudaDeviceSynchronize();
}
