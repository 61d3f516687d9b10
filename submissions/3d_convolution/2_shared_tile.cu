// Rung 2: a block of 32 x 8 threads computes a 32 x 32 tile of outputs in one output plane, 4 per thread (rows 8
// apart). For each kernel plane d it stages what the tile needs from input plane z + d in shared memory: the
// (32 + kernel_rows - 1) x (32 + kernel_cols - 1) patch (the tile plus its halo below and to the right); the kernel
// (at most 125 weights) is staged once. Each input is then read from global memory once per block and kernel plane
// instead of once per output that uses it (up to 25 times within a plane), and the inner loop reads shared memory
// only: consecutive columns across a warp (no bank conflicts) and one weight for all 32 threads (a broadcast).
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8     // blockDim.y; each thread computes TILE / ROWS outputs
#define MAX_K 5    // the largest kernel side the challenge allows

__global__ void correlate(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                          int kernel_depth, int kernel_rows, int kernel_cols, int out_rows, int out_cols) {
  __shared__ float patch[TILE + MAX_K - 1][TILE + MAX_K - 1];
  __shared__ float w[MAX_K * MAX_K * MAX_K];
  const int z = blockIdx.z, r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;
  const int tid = threadIdx.y * TILE + threadIdx.x;
  const int taps = kernel_depth * kernel_rows * kernel_cols;
  for (int t = tid; t < taps; t += TILE * ROWS) w[t] = kernel[t];
  const int patch_h = TILE + kernel_rows - 1, patch_w = TILE + kernel_cols - 1;
  float acc[TILE / ROWS] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int d = 0; d < kernel_depth; ++d) {
    const float* plane = input + (size_t)(z + d) * input_rows * input_cols;
    __syncthreads();  // everyone is done with the previous plane's patch
    for (int rr = threadIdx.y; rr < patch_h; rr += ROWS)
      for (int cc = threadIdx.x; cc < patch_w; cc += TILE) {
        const int gr = r0 + rr, gc = c0 + cc;
        patch[rr][cc] = gr < input_rows && gc < input_cols ? plane[gr * input_cols + gc] : 0.0f;
      }
    __syncthreads();
    const float* wd = w + d * kernel_rows * kernel_cols;
    for (int k = 0; k < TILE / ROWS; ++k) {
      const int ty = threadIdx.y + k * ROWS;
      float sum = acc[k];
      for (int r = 0; r < kernel_rows; ++r)
        for (int c = 0; c < kernel_cols; ++c) sum += patch[ty + r][threadIdx.x + c] * wd[r * kernel_cols + c];
      acc[k] = sum;
    }
  }
  const int x = c0 + threadIdx.x;
  for (int k = 0; k < TILE / ROWS; ++k) {
    const int y = r0 + threadIdx.y + k * ROWS;
    if (y < out_rows && x < out_cols) output[((size_t)z * out_rows + y) * out_cols + x] = acc[k];
  }
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_depth, int input_rows,
                      int input_cols, int kernel_depth, int kernel_rows, int kernel_cols) {
  const int out_depth = input_depth - kernel_depth + 1;
  const int out_rows = input_rows - kernel_rows + 1;
  const int out_cols = input_cols - kernel_cols + 1;
  const dim3 threads(TILE, ROWS);
  const dim3 blocks((out_cols + TILE - 1) / TILE, (out_rows + TILE - 1) / TILE, out_depth);
  correlate<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_depth, kernel_rows,
                                 kernel_cols, out_rows, out_cols);
  cudaDeviceSynchronize();
}
