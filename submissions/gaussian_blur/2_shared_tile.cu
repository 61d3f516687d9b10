// Rung 2: a block of 32 x 8 threads computes a 32 x 32 tile of outputs. It first stages what the tile needs in
// shared memory: the tile's pixels plus a halo of kernel_rows / 2 rows above and below and kernel_cols / 2 columns
// left and right, with zeros where the halo leaves the image, and the kernel. The inner loop then reads shared
// memory only and needs no bounds tests (the zeros are the padding), and each pixel is read from global memory about
// once per block instead of once per output that uses it (up to 441 times). Each thread computes 4 outputs, 8 rows
// apart.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8  // blockDim.y; each thread computes TILE / ROWS outputs

__global__ void blur(const float* input, const float* kernel, float* output, int rows, int cols, int kernel_rows,
                     int kernel_cols) {
  extern __shared__ float sh[];
  const int tile_w = TILE + kernel_cols - 1, tile_h = TILE + kernel_rows - 1;  // the radius on both sides
  float* w = sh;                                 // kernel_rows x kernel_cols
  float* tile = sh + kernel_rows * kernel_cols;  // tile_h x tile_w; tile[0][0] is pixel (r0 - ry, c0 - rx)
  const int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;
  const int ry = kernel_rows / 2, rx = kernel_cols / 2;
  const int tid = threadIdx.y * TILE + threadIdx.x;
  for (int t = tid; t < kernel_rows * kernel_cols; t += TILE * ROWS) w[t] = kernel[t];
  for (int rr = threadIdx.y; rr < tile_h; rr += ROWS)
    for (int cc = threadIdx.x; cc < tile_w; cc += TILE) {
      const int r = r0 - ry + rr, c = c0 - rx + cc;
      tile[rr * tile_w + cc] = r >= 0 && r < rows && c >= 0 && c < cols ? input[r * cols + c] : 0.0f;
    }
  __syncthreads();
  const int j = c0 + threadIdx.x;
  if (j >= cols) return;
  for (int ri = threadIdx.y; ri < TILE; ri += ROWS) {
    const int i = r0 + ri;
    if (i >= rows) break;
    float acc = 0.0f;
    for (int m = 0; m < kernel_rows; ++m)
      for (int n = 0; n < kernel_cols; ++n) acc += tile[(ri + m) * tile_w + threadIdx.x + n] * w[m * kernel_cols + n];
    output[i * cols + j] = acc;
  }
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const size_t smem =
      sizeof(float) * (kernel_rows * kernel_cols + (TILE + kernel_rows - 1) * (TILE + kernel_cols - 1));  // <= 13 KB
  const dim3 blocks((input_cols + TILE - 1) / TILE, (input_rows + TILE - 1) / TILE);
  blur<<<blocks, dim3(TILE, ROWS), smem>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
