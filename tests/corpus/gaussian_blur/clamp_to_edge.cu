// expect: wrong_answer
// expect-message: elements wrong
// Pads by clamping to the nearest edge pixel (what image libraries call "replicate" or "clamp to edge") instead of
// by zeros: inside the image the output is right, but every pixel within a kernel radius of the border is too large.
// On the statement's example output[0][0] becomes 16 * 9/16 = 9 instead of 4; on ones_20x37_k5x5 every output is
// 1, where the border rows and columns should lose the weights that fall outside.
#include <cuda_runtime.h>
__global__ void blur(const float* input, const float* kernel, float* output, int rows, int cols, int kernel_rows,
                     int kernel_cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  float acc = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n) {
      const int r = min(max(i + m - kernel_rows / 2, 0), rows - 1);
      const int c = min(max(j + n - kernel_cols / 2, 0), cols - 1);
      acc += input[r * cols + c] * kernel[m * kernel_cols + n];
    }
  output[i * cols + j] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const dim3 threads(16, 16), blocks((input_cols + 15) / 16, (input_rows + 15) / 16);
  blur<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
