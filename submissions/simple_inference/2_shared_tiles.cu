// Rung 2: 32x32 tiles of input and weight staged in shared memory, each thread computing 32/8 = 4 outputs.
// In rung 1 neighbouring threads (consecutive j) read weight rows input_size floats apart, so no load was coalesced,
// and every value was fetched by many threads. Here a warp loads 32 consecutive floats of one row of each matrix,
// and each loaded value is reused 32 times from shared memory. Tiles past the edges are zero-filled.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8  // threads per block: TILE x ROWS; each thread computes TILE / ROWS outputs of one column

__global__ void linear_tiled(const float* input, const float* weight, const float* bias, float* output,
                             int batch_size, int input_size, int output_size) {
  __shared__ float xs[TILE][TILE + 1];  // xs[r][k]: input rows of this block; +1 avoids bank conflicts
  __shared__ float ws[TILE][TILE + 1];  // ws[j][k]: weight rows (output features) of this block
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  float acc[TILE / ROWS] = {0.0f};
  for (int t = 0; t < input_size; t += TILE) {
    const int k = t + tx;
    for (int i = ty; i < TILE; i += ROWS) {
      const int r = row0 + i, j = col0 + i;
      xs[i][tx] = (r < batch_size && k < input_size) ? input[(size_t)r * input_size + k] : 0.0f;
      ws[i][tx] = (j < output_size && k < input_size) ? weight[(size_t)j * input_size + k] : 0.0f;
    }
    __syncthreads();  // both tiles complete
    for (int kk = 0; kk < TILE; ++kk) {
      const float w = ws[tx][kk];  // this thread's output feature is col0 + tx
      for (int i = 0; i < TILE / ROWS; ++i) acc[i] += xs[ty + i * ROWS][kk] * w;
    }
    __syncthreads();  // everyone is done before the next tiles overwrite these
  }
  const int j = col0 + tx;
  if (j >= output_size) return;
  const float b = bias[j];
  for (int i = 0; i < TILE / ROWS; ++i) {
    const int r = row0 + ty + i * ROWS;
    if (r < batch_size) output[(size_t)r * output_size + j] = acc[i] + b;
  }
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                      int input_size, int output_size) {
  const dim3 threads(TILE, ROWS);
  const dim3 blocks((output_size + TILE - 1) / TILE, (batch_size + TILE - 1) / TILE);
  linear_tiled<<<blocks, threads>>>(input, weight, bias, output, batch_size, input_size, output_size);
  cudaDeviceSynchronize();
}
