#include <cuda_runtime.h>

// output[z][y][x] = sum over d < kernel_depth, r < kernel_rows, c < kernel_cols of
// input[z + d][y + r][x + c] * kernel[d][r][c], for every z, y, x where the kernel fits inside the input: the output is
// (input_depth - kernel_depth + 1) x (input_rows - kernel_rows + 1) x (input_cols - kernel_cols + 1). All three volumes
// are row-major: element (d, r, c) of a volume with R rows of C columns is at [(d * R + r) * C + c]. The kernel is not
// flipped, and there is no padding.
__global__ void convolution_3d_kernel(const float* input, const float* kernel, float* output, int input_depth,
                                      int input_rows, int input_cols, int kernel_depth, int kernel_rows,
                                      int kernel_cols) {
  // TODO: one thread per output element is a fine first version.
}

// input, kernel and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, const float* kernel, float* output, int input_depth, int input_rows,
                      int input_cols, int kernel_depth, int kernel_rows, int kernel_cols) {
  const int output_depth = input_depth - kernel_depth + 1;
  const int output_rows = input_rows - kernel_rows + 1;
  const int output_cols = input_cols - kernel_cols + 1;
  const dim3 threads_per_block(32, 8);  // x runs along an output row, y down the rows; z is the output plane
  const dim3 blocks((output_cols + threads_per_block.x - 1) / threads_per_block.x,
                    (output_rows + threads_per_block.y - 1) / threads_per_block.y, output_depth);
  convolution_3d_kernel<<<blocks, threads_per_block>>>(input, kernel, output, input_depth, input_rows, input_cols,
                                                       kernel_depth, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
