// expect: wrong_answer
// expect-message: elements wrong
// Textbook convolution, kernel[kernel_size - 1 - j]: the challenge (like PyTorch's conv1d and LeetGPU) asks for
// cross-correlation, kernel[j]. On the statement's example it gives [-1, 7, 2, 14] instead of [-3, 5, -2, 6]; only
// symmetric kernels hide the mistake.
#include <cuda_runtime.h>
__global__ void convolve(const float* input, const float* kernel, float* output, int output_size, int kernel_size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= output_size) return;
  float acc = 0.0f;
  for (int j = 0; j < kernel_size; ++j) acc += input[i + j] * kernel[kernel_size - 1 - j];
  output[i] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_size, int kernel_size) {
  const int output_size = input_size - kernel_size + 1;
  convolve<<<(output_size + 255) / 256, 256>>>(input, kernel, output, output_size, kernel_size);
  cudaDeviceSynchronize();
}
