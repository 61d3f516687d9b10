// Rung 1: one thread per output pixel, reading the kernel_rows x kernel_cols neighbourhood around it and the whole
// kernel from global memory. Neighbours outside the image are skipped, which is the same as multiplying zeros (zero
// padding). threadIdx.x runs along a row of the image, so a warp reads consecutive pixels (coalesced).
#include <cuda_runtime.h>

__global__ void blur(const float* input, const float* kernel, float* output, int rows, int cols, int kernel_rows,
                     int kernel_cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // column
  const int i = blockIdx.y * blockDim.y + threadIdx.y;  // row
  if (i >= rows || j >= cols) return;
  const int ry = kernel_rows / 2, rx = kernel_cols / 2;
  float acc = 0.0f;
  for (int m = 0; m < kernel_rows; ++m) {
    const int r = i + m - ry;
    if (r < 0 || r >= rows) continue;
    for (int n = 0; n < kernel_cols; ++n) {
      const int c = j + n - rx;
      if (c >= 0 && c < cols) acc += input[r * cols + c] * kernel[m * kernel_cols + n];
    }
  }
  output[i * cols + j] = acc;
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const dim3 threads(32, 8);
  const dim3 blocks((input_cols + threads.x - 1) / threads.x, (input_rows + threads.y - 1) / threads.y);
  blur<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
