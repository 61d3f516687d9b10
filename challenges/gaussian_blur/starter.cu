#include <cuda_runtime.h>

// output[i][j] = sum over m < kernel_rows, n < kernel_cols of in(i + m - kernel_rows / 2, j + n - kernel_cols / 2) *
// kernel[m][n], where in(r, c) is input[r][c] inside the image and 0 outside it (zero padding). The output has the
// size of the input. All matrices are row-major: element (r, c) of a matrix with C columns is at [r * C + c]. The
// kernel is not flipped, and both its sides are odd.
__global__ void gaussian_blur_kernel(const float* input, const float* kernel, float* output, int input_rows,
                                     int input_cols, int kernel_rows, int kernel_cols) {
  // TODO: one thread per output pixel is a fine first version.
}

// input, kernel and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const dim3 threads_per_block(16, 16);  // x runs along the columns of the image, y along its rows
  const dim3 blocks((input_cols + threads_per_block.x - 1) / threads_per_block.x,
                    (input_rows + threads_per_block.y - 1) / threads_per_block.y);
  gaussian_blur_kernel<<<blocks, threads_per_block>>>(input, kernel, output, input_rows, input_cols, kernel_rows,
                                                      kernel_cols);
  cudaDeviceSynchronize();
}
