// expect: wrong_answer
// expect-message: 14 never written
// judge-args: --case example_4x5
// Updates the interior only, as if the border cells of the output already held the input (or would be "left
// alone"). The output arrives holding garbage (the judge's NaN pattern), so the border must be copied explicitly: on
// the statement's 4 x 5 example its 14 cells stay unwritten. (On n1x1 and the other grids without interior nothing
// at all is written, which is the output_not_written verdict; the case is pinned to the example.)
#include <cuda_runtime.h>
__global__ void jacobi(const float* input, float* output, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i <= 0 || i >= rows - 1 || j <= 0 || j >= cols - 1) return;
  const int at = i * cols + j;
  output[at] = 0.25f * (input[at - cols] + input[at + cols] + input[at - 1] + input[at + 1]);
}
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 threads(32, 8), blocks((cols + 31) / 32, (rows + 7) / 8);
  jacobi<<<blocks, threads>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
