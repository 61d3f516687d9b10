// expect: wrong_answer
// expect-message: elements wrong
// A "same" convolution: the window is centred on l (positions l + (K - 1) / 2 down to l - K / 2, zero outside the
// sequence at both ends) instead of ending at l. The output then depends on future positions: not causal. On the
// statement's example this gives [[3, 6], [4, 12], [4, 18], [-5, 14]].
#include <cuda_runtime.h>
__global__ void conv(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                     int K) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= (long long)B * L * D) return;
  const int d = (int)(i % D), l = (int)((i / D) % L);
  const long long b = i / ((long long)L * D);
  float acc = bias[d];
  for (int k = 0; k < K; ++k) {
    const int p = l - k + (K - 1) / 2;  // should be l - k
    if (p >= 0 && p < L) acc += weight[d * K + k] * x[(b * L + p) * D + d];
  }
  output[i] = acc;
}
extern "C" void solve(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                      int K) {
  const long long total = (long long)B * L * D;
  conv<<<(unsigned)((total + 255) / 256), 256>>>(x, weight, bias, output, B, L, D, K);
  cudaDeviceSynchronize();
}
