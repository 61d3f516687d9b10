// expect: memory_violation
// expect-message: past the end of output
// judge-args: --case tall_1025x3_k1x3
// Stores output[i][j] at i * input_cols + j: the row stride of the input, not of the output (which is
// input_cols - kernel_cols + 1 wide). Rows land too far apart and the last ones past the end of the output. On
// tall_1025x3_k1x3 (output 1025 x 1, input 3 columns wide) the last row is written at index 3072 of 1025.
#include <cuda_runtime.h>
__global__ void correlate(const float* input, const float* kernel, float* output, int input_cols, int output_rows,
                          int output_cols, int kernel_rows, int kernel_cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= output_rows || j >= output_cols) return;
  float acc = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n) acc += input[(i + m) * input_cols + (j + n)] * kernel[m * kernel_cols + n];
  output[i * input_cols + j] = acc;  // should be i * output_cols + j
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int output_rows = input_rows - kernel_rows + 1, output_cols = input_cols - kernel_cols + 1;
  const dim3 threads(16, 16), blocks((output_cols + 15) / 16, (output_rows + 15) / 16);
  correlate<<<blocks, threads>>>(input, kernel, output, input_cols, output_rows, output_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
