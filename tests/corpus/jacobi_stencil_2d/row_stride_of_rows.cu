// expect: wrong_answer
// expect-message: never written
// judge-args: --case wide_3x1025
// Addresses cell (i, j) as i * rows + j: the row stride is the number of rows instead of the number of columns.
// Square grids hide it (the example aside, most LeetGPU tests are square). On wide_3x1025 the three rows land on top
// of one another, 3 floats apart: reads and writes stay inside the 3075-float buffers, but everything past index
// 1030 is never written and the rest holds a mixture of rows.
#include <cuda_runtime.h>
__global__ void jacobi(const float* input, float* output, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  const int at = i * rows + j;  // should be i * cols + j
  if (i == 0 || i == rows - 1 || j == 0 || j == cols - 1)
    output[at] = input[at];
  else
    output[at] = 0.25f * (input[at - rows] + input[at + rows] + input[at - 1] + input[at + 1]);
}
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 threads(32, 8), blocks((cols + 31) / 32, (rows + 7) / 8);
  jacobi<<<blocks, threads>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
