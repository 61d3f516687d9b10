// expect: accepted
// judge-command: submit
// Tiles of 128 x 128 floats (padded rows: 66 KB of shared memory per block), more than the 48 KB a kernel gets
// without asking. Asking is done with cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) before the
// launch, a normal thing to do on any GPU since Volta; the judge must accept it.
#include <cuda_runtime.h>

#define TILE 128
#define PITCH (TILE + 1)  // the +1 column shifts the banks, as in submissions/matrix_transpose/3_shared_tile_padded.cu
#define BLOCK_X 32
#define BLOCK_Y 32

__global__ void transpose_big_tile(const float* input, float* output, int rows, int cols) {
  extern __shared__ float tile[];  // TILE rows of PITCH floats
  const int tile_col = blockIdx.x * TILE, tile_row = blockIdx.y * TILE;
  for (int r = threadIdx.y; r < TILE; r += BLOCK_Y)
    for (int c = threadIdx.x; c < TILE; c += BLOCK_X) {
      const int y = tile_row + r, x = tile_col + c;
      if (y < rows && x < cols) tile[r * PITCH + c] = input[static_cast<size_t>(y) * cols + x];
    }
  __syncthreads();
  // output is cols x rows: output[x][y] = input[y][x]
  for (int r = threadIdx.y; r < TILE; r += BLOCK_Y)
    for (int c = threadIdx.x; c < TILE; c += BLOCK_X) {
      const int x = tile_col + r, y = tile_row + c;  // output row x, output column y
      if (x < cols && y < rows) output[static_cast<size_t>(x) * rows + y] = tile[c * PITCH + r];
    }
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const int smem = TILE * PITCH * sizeof(float);  // 66048 bytes
  static bool configured = false;
  if (!configured) {
    cudaFuncSetAttribute(transpose_big_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    configured = true;
  }
  const dim3 threads(BLOCK_X, BLOCK_Y);
  const dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transpose_big_tile<<<blocks, threads, smem>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
