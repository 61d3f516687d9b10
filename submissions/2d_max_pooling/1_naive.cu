// Rung 1: one thread per output element. It scans its kernel_size x kernel_size window, skips positions that fall in
// the padding (they count as -infinity, so they never win) and keeps the largest input, starting from -INFINITY.
// threadIdx.x runs along a row of the output, so a warp's windows cover one contiguous run of each input row.
#include <cuda_runtime.h>
#include <math.h>

__global__ void max_pool(const float* input, float* output, int H, int W, int Ho, int Wo, int kernel_size,
                         int stride, int padding) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // output column
  const int i = blockIdx.y * blockDim.y + threadIdx.y;  // output row
  if (i >= Ho || j >= Wo) return;
  const size_t plane = blockIdx.z;  // n * C + c
  const float* in = input + plane * H * W;
  const int r0 = i * stride - padding, q0 = j * stride - padding;
  float m = -INFINITY;
  for (int r = r0; r < r0 + kernel_size; ++r) {
    if (r < 0 || r >= H) continue;
    for (int q = q0; q < q0 + kernel_size; ++q)
      if (q >= 0 && q < W) m = fmaxf(m, in[r * W + q]);
  }
  output[(plane * Ho + i) * Wo + j] = m;
}

extern "C" void solve(const float* input, float* output, int N, int C, int H, int W, int kernel_size, int stride,
                      int padding) {
  const int Ho = (H + 2 * padding - kernel_size) / stride + 1;  // integer division rounds down (both sides >= 0)
  const int Wo = (W + 2 * padding - kernel_size) / stride + 1;
  const dim3 threads(32, 8);
  const dim3 blocks((Wo + threads.x - 1) / threads.x, (Ho + threads.y - 1) / threads.y, N * C);
  max_pool<<<blocks, threads>>>(input, output, H, W, Ho, Wo, kernel_size, stride, padding);
  cudaDeviceSynchronize();
}
