// Rung 3: each thread computes 8 outputs down a column, and the loads are shared between them. In rung 2 every FMA
// needed two shared-memory loads (an input and a weight). Here, for one kernel column n, the outputs (i..i+7, j)
// need inputs from rows i .. i+7+kernel_rows-1 of column j+n only: the thread slides a window of 8 + 3 inputs down
// that column, 4 kernel rows at a time, loading 4 new inputs and 4 weights (one float4, the kernel being stored
// transposed and padded to a multiple of 4 rows) per 32 FMAs. The kernel's padding rows are zero, and the tile has
// matching zero rows below, so the unrolled loops need no bounds checks.
#include <cuda_runtime.h>

#define COLS 32          // blockDim.x: output columns per block
#define ROWS 8           // blockDim.y
#define RY 8             // outputs per thread, down a column
#define TILE_ROWS (ROWS * RY)
#define MC 4             // kernel rows per step

__global__ void __launch_bounds__(COLS * ROWS) correlate(const float* __restrict__ input,
                                                         const float* __restrict__ kernel, float* __restrict__ output,
                                                         int input_rows, int input_cols, int output_rows,
                                                         int output_cols, int kernel_rows, int kernel_cols) {
  extern __shared__ float4 sh4[];
  const int kh_pad = (kernel_rows + MC - 1) / MC * MC;
  const int tile_w = COLS + kernel_cols - 1, tile_h = TILE_ROWS + kh_pad - 1;
  float* kT = reinterpret_cast<float*>(sh4);  // kernel_cols x kh_pad: kT[n * kh_pad + m] = kernel[m][n]
  float* tile = kT + kernel_cols * kh_pad;    // tile_h x tile_w
  const int r0 = blockIdx.y * TILE_ROWS, c0 = blockIdx.x * COLS;
  const int tid = threadIdx.y * COLS + threadIdx.x;
  for (int t = tid; t < kernel_cols * kh_pad; t += COLS * ROWS) {
    const int n = t / kh_pad, m = t % kh_pad;
    kT[t] = m < kernel_rows ? kernel[m * kernel_cols + n] : 0.0f;
  }
  for (int rr = threadIdx.y; rr < tile_h; rr += ROWS)
    for (int cc = threadIdx.x; cc < tile_w; cc += COLS) {
      const int gr = r0 + rr, gc = c0 + cc;
      tile[rr * tile_w + cc] = gr < input_rows && gc < input_cols ? input[gr * input_cols + gc] : 0.0f;
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
  if (j >= output_cols) return;
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int i = r0 + ty0 + r;
    if (i < output_rows) output[i * output_cols + j] = acc[r];
  }
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int output_rows = input_rows - kernel_rows + 1;
  const int output_cols = input_cols - kernel_cols + 1;
  const int kh_pad = (kernel_rows + MC - 1) / MC * MC;
  const size_t smem =
      sizeof(float) * (kernel_cols * kh_pad + (TILE_ROWS + kh_pad - 1) * (COLS + kernel_cols - 1));  // <= 28 KB
  const dim3 blocks((output_cols + COLS - 1) / COLS, (output_rows + TILE_ROWS - 1) / TILE_ROWS);
  correlate<<<blocks, dim3(COLS, ROWS), smem>>>(input, kernel, output, input_rows, input_cols, output_rows,
                                                output_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
