// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case odd_67x131_k5x7 --case n1000x1000_k21x21
// A shared-memory tile whose halo loop stops one short: it loads TILE + kernel_rows - 2 rows and TILE + kernel_cols
// - 2 columns, so the tile's last row and last column (the far edge of the halo, below and to the right) are never
// staged. The outputs in the tile's last row and column read whatever shared memory held before (a previous block's
// pixels, or anything). Cases pinned to ones whose tiles lie inside the image, where those pixels are not zero.
#include <cuda_runtime.h>
#define TILE 16
#define MAXK 21
__global__ void blur(const float* input, const float* kernel, float* output, int rows, int cols, int kernel_rows,
                     int kernel_cols) {
  __shared__ float tile[TILE + MAXK - 1][TILE + MAXK - 1];
  const int ry = kernel_rows / 2, rx = kernel_cols / 2;
  const int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;
  for (int rr = threadIdx.y; rr < TILE + kernel_rows - 2; rr += TILE)      // should be < TILE + kernel_rows - 1
    for (int cc = threadIdx.x; cc < TILE + kernel_cols - 2; cc += TILE) {  // should be < TILE + kernel_cols - 1
      const int r = r0 - ry + rr, c = c0 - rx + cc;
      tile[rr][cc] = r >= 0 && r < rows && c >= 0 && c < cols ? input[r * cols + c] : 0.0f;
    }
  __syncthreads();
  const int i = r0 + threadIdx.y, j = c0 + threadIdx.x;
  if (i >= rows || j >= cols) return;
  float acc = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n) acc += tile[threadIdx.y + m][threadIdx.x + n] * kernel[m * kernel_cols + n];
  output[i * cols + j] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const dim3 threads(TILE, TILE), blocks((input_cols + TILE - 1) / TILE, (input_rows + TILE - 1) / TILE);
  blur<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
