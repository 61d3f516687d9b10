// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case short_2x5x3_k8 --case batch_rows_16x3x64_k8
// The taps before l = 0 are not treated as zero: the only bounds check keeps the index inside x, as a hasty fix for
// an out-of-bounds read would. Batch row 0 comes out right (its missing taps fall before x and are skipped), but
// every later row reads the last K - 1 positions of the row before it as if the batch were one long sequence.
#include <cuda_runtime.h>
__global__ void conv(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                     int K) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= (long long)B * L * D) return;
  const int d = (int)(i % D);
  float acc = bias[d];
  for (int k = 0; k < K; ++k) {
    const long long j = i - (long long)k * D;  // x[b, l - k, d] only while l - k >= 0
    if (j >= 0) acc += weight[d * K + k] * x[j];
  }
  output[i] = acc;
}
extern "C" void solve(const float* x, const float* weight, const float* bias, float* output, int B, int L, int D,
                      int K) {
  const long long total = (long long)B * L * D;
  conv<<<(unsigned)((total + 255) / 256), 256>>>(x, weight, bias, output, B, L, D, K);
  cudaDeviceSynchronize();
}
