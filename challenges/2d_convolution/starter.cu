#include <cuda_runtime.h>

// output[i][j] = sum over m < kernel_rows, n < kernel_cols of input[i + m][j + n] * kernel[m][n], for
// i < input_rows - kernel_rows + 1 and j < input_cols - kernel_cols + 1. All three matrices are row-major: element
// (r, c) of a matrix with C columns is at [r * C + c]. The kernel is not flipped, and there is no padding.
__global__ void convolution_2d_kernel(const float* input, const float* kernel, float* output, int input_rows,
                                      int input_cols, int kernel_rows, int kernel_cols) {
  // TODO: one thread per output element is a fine first version.
}

// input, kernel and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int output_rows = input_rows - kernel_rows + 1;
  const int output_cols = input_cols - kernel_cols + 1;
  const dim3 threads_per_block(16, 16);  // x runs along the columns of the output, y along its rows
  const dim3 blocks((output_cols + threads_per_block.x - 1) / threads_per_block.x,
                    (output_rows + threads_per_block.y - 1) / threads_per_block.y);
  convolution_2d_kernel<<<blocks, threads_per_block>>>(input, kernel, output, input_rows, input_cols, kernel_rows,
                                                       kernel_cols);
  cudaDeviceSynchronize();
}
