// expect: memory_violation
// expect-message: past the end of output
// judge-args: --case floor_10x12_k3s2p0
// Rounds the output size up, (H + 2*padding - kernel_size + stride - 1) / stride + 1 (PyTorch's ceil_mode=True),
// where the challenge, like max_pool2d's default, rounds down. On floor_10x12_k3s2p0 that gives 5 x 6 outputs per
// plane instead of 4 x 5: rows land at the wrong stride and the last ones past the end of output (index 59 of 40).
#include <cuda_runtime.h>
#include <math.h>
__global__ void max_pool(const float* input, float* output, int H, int W, int Ho, int Wo, int kernel_size,
                         int stride, int padding) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= Ho || j >= Wo) return;
  const size_t plane = blockIdx.z;
  const float* in = input + plane * H * W;
  float m = -INFINITY;
  for (int r = i * stride - padding; r < i * stride - padding + kernel_size; ++r)
    for (int q = j * stride - padding; q < j * stride - padding + kernel_size; ++q)
      if (r >= 0 && r < H && q >= 0 && q < W) m = fmaxf(m, in[r * W + q]);
  output[(plane * Ho + i) * Wo + j] = m;
}
extern "C" void solve(const float* input, float* output, int N, int C, int H, int W, int kernel_size, int stride,
                      int padding) {
  const int Ho = (H + 2 * padding - kernel_size + stride - 1) / stride + 1;  // should round down
  const int Wo = (W + 2 * padding - kernel_size + stride - 1) / stride + 1;
  const dim3 threads(32, 8), blocks((Wo + 31) / 32, (Ho + 7) / 8, N * C);
  max_pool<<<blocks, threads>>>(input, output, H, W, Ho, Wo, kernel_size, stride, padding);
  cudaDeviceSynchronize();
}
