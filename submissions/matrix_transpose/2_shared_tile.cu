// Rung 2: stage a 32x32 tile in shared memory, so that both global accesses are coalesced.
// The block reads the tile along input rows and writes it along output rows; the transposition itself happens in
// shared memory. Reading a column of the tile there hits one bank 32 times over, which rung 3 removes.
#include <cuda_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8  // a 32x8 block moves a 32x32 tile, 4 elements per thread

__global__ void transpose_tiled(const float* input, float* output, int rows, int cols) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;  // input column
  int y = blockIdx.y * TILE + threadIdx.y;  // input row (first of 4)
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = input[(y + j) * cols + x];
  __syncthreads();  // no early return above: every thread must reach this barrier
  x = blockIdx.y * TILE + threadIdx.x;  // output column = input row
  y = blockIdx.x * TILE + threadIdx.y;  // output row = input column
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) output[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 threads(TILE, BLOCK_ROWS);
  const dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transpose_tiled<<<blocks, threads>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
