// Rung 1: one thread per output element, reading its kernel_rows x kernel_cols window of the input and the whole
// kernel from global memory. threadIdx.x runs along a row of the output, so a warp reads consecutive inputs
// (coalesced). The output has input_rows - kernel_rows + 1 rows and input_cols - kernel_cols + 1 columns, and its
// row stride is its own width, not the input's.
#include <cuda_runtime.h>

__global__ void correlate(const float* input, const float* kernel, float* output, int input_cols, int output_rows,
                          int output_cols, int kernel_rows, int kernel_cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // output column
  const int i = blockIdx.y * blockDim.y + threadIdx.y;  // output row
  if (i >= output_rows || j >= output_cols) return;
  float acc = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n) acc += input[(i + m) * input_cols + (j + n)] * kernel[m * kernel_cols + n];
  output[i * output_cols + j] = acc;
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int output_rows = input_rows - kernel_rows + 1;
  const int output_cols = input_cols - kernel_cols + 1;
  const dim3 threads(32, 8);
  const dim3 blocks((output_cols + threads.x - 1) / threads.x, (output_rows + threads.y - 1) / threads.y);
  correlate<<<blocks, threads>>>(input, kernel, output, input_cols, output_rows, output_cols, kernel_rows,
                                 kernel_cols);
  cudaDeviceSynchronize();
}
