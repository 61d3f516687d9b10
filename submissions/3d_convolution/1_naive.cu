// Rung 1: one thread per output element, reading its kernel_depth x kernel_rows x kernel_cols window of the input and
// the whole kernel from global memory. threadIdx.x runs along an output row, so a warp reads consecutive inputs
// (coalesced); blockIdx.z is the output plane. The input's plane stride is input_rows * input_cols and its row stride
// input_cols; the output's are its own (input sizes minus kernel sizes plus one).
#include <cuda_runtime.h>

__global__ void correlate(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                          int kernel_depth, int kernel_rows, int kernel_cols, int out_rows, int out_cols) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;  // output column
  const int y = blockIdx.y * blockDim.y + threadIdx.y;  // output row
  const int z = blockIdx.z;                             // output plane
  if (x >= out_cols || y >= out_rows) return;
  float acc = 0.0f;
  for (int d = 0; d < kernel_depth; ++d)
    for (int r = 0; r < kernel_rows; ++r)
      for (int c = 0; c < kernel_cols; ++c)
        acc += input[((z + d) * input_rows + (y + r)) * input_cols + (x + c)] *
               kernel[(d * kernel_rows + r) * kernel_cols + c];
  output[(z * out_rows + y) * out_cols + x] = acc;
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_depth, int input_rows,
                      int input_cols, int kernel_depth, int kernel_rows, int kernel_cols) {
  const int out_depth = input_depth - kernel_depth + 1;
  const int out_rows = input_rows - kernel_rows + 1;
  const int out_cols = input_cols - kernel_cols + 1;
  const dim3 threads(32, 8);
  const dim3 blocks((out_cols + threads.x - 1) / threads.x, (out_rows + threads.y - 1) / threads.y, out_depth);
  correlate<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_depth, kernel_rows,
                                 kernel_cols, out_rows, out_cols);
  cudaDeviceSynchronize();
}
