// expect: wrong_answer
// expect-message: elements wrong
// Reads the padding as zeros: positions outside the plane contribute 0.0f to the maximum. PyTorch (and LeetGPU)
// skip them (-infinity). Any border window whose real inputs are all negative then yields 0: the statement's example
// gives [[0, 3], [7, 2]] instead of [[-1, 3], [7, 2]], and negative_pad_k3s1p1 gets every border output wrong.
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
    for (int q = j * stride - padding; q < j * stride - padding + kernel_size; ++q) {
      const float v = (r >= 0 && r < H && q >= 0 && q < W) ? in[r * W + q] : 0.0f;  // should be skipped
      m = fmaxf(m, v);
    }
  output[(plane * Ho + i) * Wo + j] = m;
}
extern "C" void solve(const float* input, float* output, int N, int C, int H, int W, int kernel_size, int stride,
                      int padding) {
  const int Ho = (H + 2 * padding - kernel_size) / stride + 1, Wo = (W + 2 * padding - kernel_size) / stride + 1;
  const dim3 threads(32, 8), blocks((Wo + 31) / 32, (Ho + 7) / 8, N * C);
  max_pool<<<blocks, threads>>>(input, output, H, W, Ho, Wo, kernel_size, stride, padding);
  cudaDeviceSynchronize();
}
