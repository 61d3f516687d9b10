// Rung 1: one thread per element, copying input[r][c] to output[c][r] directly.
// Reads are coalesced (a warp reads 32 consecutive elements of a row) but writes are not: the same warp writes 32
// elements that lie `rows` floats apart, one memory transaction each. Rung 2 fixes the writes.
#include <cuda_runtime.h>

__global__ void transpose_naive(const float* input, float* output, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;  // input column
  const int r = blockIdx.y * blockDim.y + threadIdx.y;  // input row
  if (r < rows && c < cols) output[c * rows + r] = input[r * cols + c];
}

// input is rows x cols, output is cols x rows, both row-major device pointers.
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 threads(32, 8);
  const dim3 blocks((cols + threads.x - 1) / threads.x, (rows + threads.y - 1) / threads.y);
  transpose_naive<<<blocks, threads>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
