// expect: wrong_answer
// expect-message: elements wrong
// Textbook convolution, kernel[KD - 1 - d][KR - 1 - r][KC - 1 - c]: the challenge (like PyTorch's conv3d and LeetGPU)
// asks for cross-correlation, kernel[d][r][c]. On the statement's example it gives [[[13, -3], [-1, 5]]] instead of
// [[[5, -2], [10, 6]]]; only kernels symmetric under the flip of all three axes hide the mistake.
#include <cuda_runtime.h>
__global__ void convolve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                         int kd, int kr, int kc, int out_rows, int out_cols) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (x >= out_cols || y >= out_rows) return;
  float acc = 0.0f;
  for (int d = 0; d < kd; ++d)
    for (int r = 0; r < kr; ++r)
      for (int c = 0; c < kc; ++c)
        acc += input[((z + d) * input_rows + (y + r)) * input_cols + (x + c)] *
               kernel[((kd - 1 - d) * kr + (kr - 1 - r)) * kc + (kc - 1 - c)];
  output[(z * out_rows + y) * out_cols + x] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_depth, int input_rows,
                      int input_cols, int kernel_depth, int kernel_rows, int kernel_cols) {
  const int od = input_depth - kernel_depth + 1, orows = input_rows - kernel_rows + 1,
            ocols = input_cols - kernel_cols + 1;
  const dim3 threads(32, 8), blocks((ocols + 31) / 32, (orows + 7) / 8, od);
  convolve<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_depth, kernel_rows, kernel_cols,
                                orows, ocols);
  cudaDeviceSynchronize();
}
