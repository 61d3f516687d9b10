// Rung 2: each thread computes ROWS = 4 outputs stacked in one column. Windows of vertically adjacent outputs overlap
// when stride < kernel_size (LeetGPU's 3 x 3, stride 2 shares one input row between neighbours), so the thread walks
// down the input rows its windows cover, takes each row's maximum over the window's columns once, and folds it into
// every one of its outputs whose window contains that row: 9 rows read for 4 outputs instead of 12. Fewer, larger
// threads also mean fewer index computations per output; the loads stay coalesced along rows as in rung 1.
#include <cuda_runtime.h>
#include <math.h>

#define ROWS 4

__global__ void max_pool(const float* __restrict__ input, float* __restrict__ output, int H, int W, int Ho, int Wo,
                         int kernel_size, int stride, int padding) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;             // output column
  const int i0 = (blockIdx.y * blockDim.y + threadIdx.y) * ROWS;  // first of this thread's output rows
  if (i0 >= Ho || j >= Wo) return;
  const size_t plane = blockIdx.z;
  const float* in = input + plane * H * W;
  const int r0 = i0 * stride - padding, q0 = j * stride - padding;
  float m[ROWS];
  for (int k = 0; k < ROWS; ++k) m[k] = -INFINITY;
  const int rows = (ROWS - 1) * stride + kernel_size;  // input rows covered by the ROWS windows
  for (int t = 0; t < rows; ++t) {
    const int r = r0 + t;
    if (r < 0 || r >= H) continue;  // a padding row: nothing to fold in
    float row_max = -INFINITY;
    for (int q = q0; q < q0 + kernel_size; ++q)
      if (q >= 0 && q < W) row_max = fmaxf(row_max, __ldg(in + r * W + q));
#pragma unroll
    for (int k = 0; k < ROWS; ++k)  // output i0 + k covers relative rows [k * stride, k * stride + kernel_size)
      if (t >= k * stride && t < k * stride + kernel_size) m[k] = fmaxf(m[k], row_max);
  }
  for (int k = 0; k < ROWS; ++k)
    if (i0 + k < Ho) output[(plane * Ho + i0 + k) * Wo + j] = m[k];
}

extern "C" void solve(const float* input, float* output, int N, int C, int H, int W, int kernel_size, int stride,
                      int padding) {
  const int Ho = (H + 2 * padding - kernel_size) / stride + 1;
  const int Wo = (W + 2 * padding - kernel_size) / stride + 1;
  const dim3 threads(32, 8);
  const dim3 blocks((Wo + threads.x - 1) / threads.x, (Ho + threads.y * ROWS - 1) / (threads.y * ROWS), N * C);
  max_pool<<<blocks, threads>>>(input, output, H, W, Ho, Wo, kernel_size, stride, padding);
  cudaDeviceSynchronize();
}
