// Rung 1: one thread per cell. A border cell (first or last row or column) copies its input; an interior cell
// averages its four neighbours. threadIdx.x runs along a row, so a warp reads and writes consecutive floats
// (coalesced), and the neighbours' reads of adjacent threads meet in the L1 cache.
#include <cuda_runtime.h>

__global__ void jacobi(const float* input, float* output, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // column
  const int i = blockIdx.y * blockDim.y + threadIdx.y;  // row
  if (i >= rows || j >= cols) return;
  const int at = i * cols + j;
  if (i == 0 || i == rows - 1 || j == 0 || j == cols - 1)
    output[at] = input[at];
  else
    output[at] = 0.25f * (input[at - cols] + input[at + cols] + input[at - 1] + input[at + 1]);
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 threads(32, 8);
  const dim3 blocks((cols + threads.x - 1) / threads.x, (rows + threads.y - 1) / threads.y);
  jacobi<<<blocks, threads>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
