// expect: wrong_answer
// expect-message: elements wrong
// Textbook convolution, kernel[kernel_rows - 1 - m][kernel_cols - 1 - n]: the challenge (like PyTorch's conv2d and
// LeetGPU) asks for cross-correlation, kernel[m][n]. On the statement's example it gives [[6, -2, 5], [1, 14, 2]]
// instead of [[6, 0, 5], [-3, 0, 6]]; only kernels symmetric under a half-turn hide the mistake.
#include <cuda_runtime.h>
__global__ void convolve(const float* input, const float* kernel, float* output, int input_cols, int output_rows,
                         int output_cols, int kernel_rows, int kernel_cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= output_rows || j >= output_cols) return;
  float acc = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n)
      acc += input[(i + m) * input_cols + (j + n)] *
             kernel[(kernel_rows - 1 - m) * kernel_cols + (kernel_cols - 1 - n)];
  output[i * output_cols + j] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int output_rows = input_rows - kernel_rows + 1, output_cols = input_cols - kernel_cols + 1;
  const dim3 threads(16, 16), blocks((output_cols + 15) / 16, (output_rows + 15) / 16);
  convolve<<<blocks, threads>>>(input, kernel, output, input_cols, output_rows, output_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
