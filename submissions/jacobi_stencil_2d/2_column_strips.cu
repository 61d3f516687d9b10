// Rung 2: each thread walks down a strip of 16 rows of one column, keeping the cells above, at and below the current
// row in registers, so every cell is loaded from memory (16 + 2) / 16 times by its own column instead of 3 times
// (up, centre, down) as in rung 1; only the left and right neighbours are extra loads, and they hit L1 (the adjacent
// threads just loaded them). All 18 loads of a strip are issued before any arithmetic, so many are in flight at once.
// Offsets are 64-bit: rows * cols reaches 2^28 cells here, but a habit that costs nothing.
#include <cuda_runtime.h>

#define THREADS 128
#define STRIP 16

__global__ void __launch_bounds__(THREADS) jacobi(const float* __restrict__ input, float* __restrict__ output,
                                                  int rows, int cols) {
  const int j = blockIdx.x * THREADS + threadIdx.x;
  if (j >= cols) return;
  const int r0 = blockIdx.y * STRIP;
  const bool interior_col = j > 0 && j < cols - 1;
  float v[STRIP + 2];  // v[t] = row r0 - 1 + t of column j; rows outside the grid are clamped (never used)
#pragma unroll
  for (int t = 0; t < STRIP + 2; ++t) {
    const int r = min(max(r0 - 1 + t, 0), rows - 1);
    v[t] = input[(long long)r * cols + j];
  }
#pragma unroll
  for (int t = 0; t < STRIP; ++t) {
    const int i = r0 + t;
    if (i >= rows) break;
    const long long at = (long long)i * cols + j;
    float out = v[t + 1];
    if (interior_col && i > 0 && i < rows - 1) out = 0.25f * (v[t] + v[t + 2] + input[at - 1] + input[at + 1]);
    output[at] = out;
  }
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 blocks((cols + THREADS - 1) / THREADS, (rows + STRIP - 1) / STRIP);
  jacobi<<<blocks, THREADS>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
