// Rung 2: a block of 32 x 8 threads computes a 32 x 32 tile of outputs. It first stages what the tile needs in
// shared memory: (32 + kernel_rows - 1) x (32 + kernel_cols - 1) inputs (the tile plus its halo to the right and
// below) and the kernel. Every input is then read from global memory about once per block rather than once per output
// that uses it (up to 31 x 31 times), and the inner loop reads shared memory only: consecutive columns across a warp
// (no bank conflicts) and the same weight for all 32 threads (a broadcast). Each thread computes 4 outputs, 8 rows
// apart.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8  // blockDim.y; each thread computes TILE / ROWS outputs

__global__ void correlate(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                          int output_rows, int output_cols, int kernel_rows, int kernel_cols) {
  extern __shared__ float sh[];
  const int tile_w = TILE + kernel_cols - 1, tile_h = TILE + kernel_rows - 1;
  float* w = sh;                                 // kernel_rows x kernel_cols
  float* tile = sh + kernel_rows * kernel_cols;  // tile_h x tile_w
  const int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;
  const int tid = threadIdx.y * TILE + threadIdx.x;
  for (int t = tid; t < kernel_rows * kernel_cols; t += TILE * ROWS) w[t] = kernel[t];
  for (int rr = threadIdx.y; rr < tile_h; rr += ROWS)
    for (int cc = threadIdx.x; cc < tile_w; cc += TILE) {
      const int gr = r0 + rr, gc = c0 + cc;
      tile[rr * tile_w + cc] = gr < input_rows && gc < input_cols ? input[gr * input_cols + gc] : 0.0f;
    }
  __syncthreads();
  const int j = c0 + threadIdx.x;
  for (int ri = threadIdx.y; ri < TILE; ri += ROWS) {
    const int i = r0 + ri;
    if (i >= output_rows || j >= output_cols) continue;
    float acc = 0.0f;
    for (int m = 0; m < kernel_rows; ++m)
      for (int n = 0; n < kernel_cols; ++n) acc += tile[(ri + m) * tile_w + threadIdx.x + n] * w[m * kernel_cols + n];
    output[i * output_cols + j] = acc;
  }
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int output_rows = input_rows - kernel_rows + 1;
  const int output_cols = input_cols - kernel_cols + 1;
  const size_t smem =
      sizeof(float) * (kernel_rows * kernel_cols + (TILE + kernel_rows - 1) * (TILE + kernel_cols - 1));  // <= 19 KB
  const dim3 blocks((output_cols + TILE - 1) / TILE, (output_rows + TILE - 1) / TILE);
  correlate<<<blocks, dim3(TILE, ROWS), smem>>>(input, kernel, output, input_rows, input_cols, output_rows,
                                                output_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
