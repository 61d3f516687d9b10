// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case shift_31x45_k3x5 --case wide_kernel_40x100_k3x9
// Centres the kernel with its radii swapped: rows offset by kernel_cols / 2, columns by kernel_rows / 2. Every square
// kernel hides the mistake (the example, the 1 x 1 and 21 x 21 cases); on shift_31x45_k3x5, where only kernel[0][4]
// is 1, it gives input[i - 2][j + 3] instead of input[i - 1][j + 2], and the 3 x 9 kernel is off centre too.
#include <cuda_runtime.h>
__global__ void blur(const float* input, const float* kernel, float* output, int rows, int cols, int kernel_rows,
                     int kernel_cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  const int ry = kernel_cols / 2, rx = kernel_rows / 2;  // should be kernel_rows / 2 and kernel_cols / 2
  float acc = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n) {
      const int r = i + m - ry, c = j + n - rx;
      if (r >= 0 && r < rows && c >= 0 && c < cols) acc += input[r * cols + c] * kernel[m * kernel_cols + n];
    }
  output[i * cols + j] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const dim3 threads(16, 16), blocks((input_cols + 15) / 16, (input_rows + 15) / 16);
  blur<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
