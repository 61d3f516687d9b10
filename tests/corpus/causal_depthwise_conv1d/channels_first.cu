// expect: wrong_answer
// expect-message: elements wrong
// x read as channels first, (B, D, L) as PyTorch's conv1d wants it: x[b, d, l] at (b * D + d) * L + l. The judge
// (like LeetGPU) stores x channels last, (B, L, D): x[b, l, d] at (b * L + l) * D + d, so every tap reads some other
// element. The indices stay inside x, so only the values are wrong; layout_3x37x33_k4 (L != D) and the example show it.
#include <cuda_runtime.h>
__global__ void conv(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                     int K) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= (long long)B * L * D) return;
  const int d = (int)(i % D), l = (int)((i / D) % L);
  const long long b = i / ((long long)L * D);
  float acc = bias[d];
  for (int k = 0; k < K && k <= l; ++k) acc += weight[d * K + k] * x[(b * D + d) * L + (l - k)];
  output[i] = acc;
}
extern "C" void solve(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                      int K) {
  const long long total = (long long)B * L * D;
  conv<<<(unsigned)((total + 255) / 256), 256>>>(x, weight, bias, output, B, L, D, K);
  cudaDeviceSynchronize();
}
