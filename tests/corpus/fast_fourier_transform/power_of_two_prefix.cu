// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case n3 --case random_250
// A radix-2 FFT written for powers of two only: it transforms the first P = 2^floor(log2 N) values as if they were
// the whole signal and writes P outputs. Right on every power of two (LeetGPU's performance case included); for
// N = 250 the first 128 outputs are a 128-point transform of the wrong signal and the other 122 keep the judge's
// poison ("never written"), for N = 3 two of three outputs are wrong and one is never written.
#include <cuda_runtime.h>
__device__ float2 cmul(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__global__ void bit_reverse(const float2* src, float2* dst, int n, int log2n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[log2n ? __brev(unsigned(i)) >> (32 - log2n) : 0] = src[i];
}
__global__ void butterfly(float2* x, int n, int half) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n / 2) return;
  const int j = t & (half - 1), i = (t - j) * 2 + j;
  float s, c;
  sincospif(-float(j) / float(half), &s, &c);
  const float2 u = x[i], v = cmul(x[i + half], make_float2(c, s));
  x[i] = make_float2(u.x + v.x, u.y + v.y);
  x[i + half] = make_float2(u.x - v.x, u.y - v.y);
}
extern "C" void solve(const float* signal, float* spectrum, int N) {
  int log2n = 0;
  while ((2 << log2n) <= N) ++log2n;  // floor(log2 N): the largest power of two that fits
  const int P = 1 << log2n;
  float2* X = reinterpret_cast<float2*>(spectrum);
  bit_reverse<<<(P + 255) / 256, 256>>>(reinterpret_cast<const float2*>(signal), X, P, log2n);
  for (int half = 1; half < P; half *= 2) butterfly<<<(P / 2 + 255) / 256, 256>>>(X, P, half);
  cudaDeviceSynchronize();
}
