// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case example_4x5 --case two_rows_2x33
// The interior test is off by one at the bottom and right: i < rows and j < cols instead of i < rows - 1 and
// j < cols - 1. So the last row and column are averaged instead of copied, with "neighbours" read one row past the
// end of the input (whatever lies there) and from the start of the next row. On two_rows_2x33 the second row should
// be a plain copy.
#include <cuda_runtime.h>
__global__ void jacobi(const float* input, float* output, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  const int at = i * cols + j;
  if (i > 0 && i < rows && j > 0 && j < cols)  // should be i < rows - 1 && j < cols - 1
    output[at] = 0.25f * (input[at - cols] + input[at + cols] + input[at - 1] + input[at + 1]);
  else
    output[at] = input[at];
}
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 threads(32, 8), blocks((cols + 31) / 32, (rows + 7) / 8);
  jacobi<<<blocks, threads>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
