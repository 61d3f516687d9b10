// expect: wrong_answer
// expect-message: elements wrong
// PyTorch's conv1d on the left-padded sequence without reversing the kernel: weight[d, K - 1] multiplies the current
// position and weight[d, 0] the oldest. The challenge (like LeetGPU's reference, which flips the kernel before
// conv1d) puts weight[d, 0] on the current position. On the statement's example this gives
// [[-1, 2], [-3, 6], [-4, 12], [-4, 18]] instead of [[1, 2], [3, 6], [4, 12], [4, 18]]; last_tap_2x40x8_k4 shows it
// too (output = bias + x[b, l] instead of bias + x[b, l - 3]).
#include <cuda_runtime.h>
__global__ void conv(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                     int K) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= (long long)B * L * D) return;
  const int d = (int)(i % D), l = (int)((i / D) % L);
  float acc = bias[d];
  for (int k = 0; k < K && k <= l; ++k) acc += weight[d * K + (K - 1 - k)] * x[i - (long long)k * D];
  output[i] = acc;
}
extern "C" void solve(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                      int K) {
  const long long total = (long long)B * L * D;
  conv<<<(unsigned)((total + 255) / 256), 256>>>(x, weight, bias, output, B, L, D, K);
  cudaDeviceSynchronize();
}
