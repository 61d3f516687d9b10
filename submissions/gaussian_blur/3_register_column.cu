// Rung 3: each thread computes 8 outputs down a column, and they share their loads. In rung 2 every FMA needed two
// shared-memory loads (a pixel and a weight). Here, for one kernel column n, the outputs (i..i+7, j) need the tile's
// column j + n only, rows i .. i+7+kernel_rows-1: the thread slides a window of 8 + 3 pixels down it, 4 kernel rows
// at a time, loading 4 new pixels and 4 weights (one float4: the kernel is stored transposed, each column padded to
// a multiple of 4 rows with zeros) per 32 FMAs. The tile has matching zero rows below, so the unrolled loops need no
// bounds tests. Blocks are 32 x 8 threads computing 32 x 64 outputs.
#include <cuda_runtime.h>

#define COLS 32  // blockDim.x: output columns per block
#define ROWS 8   // blockDim.y
#define RY 8     // outputs per thread, down a column
#define TILE_ROWS (ROWS * RY)
#define MC 4     // kernel rows per step

__global__ void __launch_bounds__(COLS * ROWS) blur(const float* __restrict__ input, const float* __restrict__ kernel,
                                                    float* __restrict__ output, int rows, int cols, int kernel_rows,
                                                    int kernel_cols) {
  extern __shared__ float4 sh4[];
  const int kh_pad = (kernel_rows + MC - 1) / MC * MC;
  const int tile_w = COLS + kernel_cols - 1, tile_h = TILE_ROWS + kh_pad - 1;
  const int live_h = TILE_ROWS + kernel_rows - 1;  // tile rows below this meet only zero weights: keep them zero
  float* kT = reinterpret_cast<float*>(sh4);  // kernel_cols x kh_pad: kT[n * kh_pad + m] = kernel[m][n]
  float* tile = kT + kernel_cols * kh_pad;    // tile_h x tile_w; tile[0][0] is pixel (r0 - ry, c0 - rx)
  const int r0 = blockIdx.y * TILE_ROWS, c0 = blockIdx.x * COLS;
  const int ry = kernel_rows / 2, rx = kernel_cols / 2;
  const int tid = threadIdx.y * COLS + threadIdx.x;
  for (int t = tid; t < kernel_cols * kh_pad; t += COLS * ROWS) {
    const int n = t / kh_pad, m = t % kh_pad;
    kT[t] = m < kernel_rows ? kernel[m * kernel_cols + n] : 0.0f;
  }
  for (int rr = threadIdx.y; rr < tile_h; rr += ROWS)
    for (int cc = threadIdx.x; cc < tile_w; cc += COLS) {
      const int r = r0 - ry + rr, c = c0 - rx + cc;
      tile[rr * tile_w + cc] = rr < live_h && r >= 0 && r < rows && c >= 0 && c < cols ? input[r * cols + c] : 0.0f;
    }
  __syncthreads();

  const int ty0 = threadIdx.y * RY;  // this thread's outputs: rows r0 + ty0 + [0, RY), column c0 + threadIdx.x
  float acc[RY] = {};
  for (int n = 0; n < kernel_cols; ++n) {
    const float* col = tile + ty0 * tile_w + threadIdx.x + n;
    const float4* kcol = reinterpret_cast<const float4*>(kT + n * kh_pad);  // kh_pad is a multiple of 4
    float w[RY + MC - 1];  // w[q] = tile row ty0 + m0 + q
#pragma unroll
    for (int q = 0; q < RY - 1; ++q) w[q] = col[q * tile_w];
    for (int m0 = 0; m0 < kh_pad; m0 += MC) {
#pragma unroll
      for (int q = 0; q < MC; ++q) w[RY - 1 + q] = col[(m0 + RY - 1 + q) * tile_w];
      const float4 k4 = kcol[m0 / MC];
      const float kv[MC] = {k4.x, k4.y, k4.z, k4.w};
#pragma unroll
      for (int mm = 0; mm < MC; ++mm)
#pragma unroll
        for (int r = 0; r < RY; ++r) acc[r] = fmaf(w[r + mm], kv[mm], acc[r]);
#pragma unroll
      for (int q = 0; q < RY - 1; ++q) w[q] = w[q + MC];
    }
  }
  const int j = c0 + threadIdx.x;
  if (j >= cols) return;
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int i = r0 + ty0 + r;
    if (i < rows) output[i * cols + j] = acc[r];
  }
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int kh_pad = (kernel_rows + MC - 1) / MC * MC;
  const size_t smem =
      sizeof(float) * (kernel_cols * kh_pad + (TILE_ROWS + kh_pad - 1) * (COLS + kernel_cols - 1));  // <= 20 KB
  const dim3 blocks((input_cols + COLS - 1) / COLS, (input_rows + TILE_ROWS - 1) / TILE_ROWS);
  blur<<<blocks, dim3(COLS, ROWS), smem>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
