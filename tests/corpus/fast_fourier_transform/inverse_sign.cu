// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case shifted_impulse_8 --case tone_16_bin3
// A direct DFT, summed in double, with the exponent's sign flipped: exp(+2 pi i k n / N) computes the unnormalised
// inverse transform, the conjugate-mirrored spectrum. An impulse at n = 0 or a constant signal cannot tell the
// difference (example_impulse_4 and constant_8 pass); an impulse at n = 1 gets every twiddle conjugated, and the
// tone exp(+2 pi i 3 n / 16) peaks in bin 13 instead of bin 3.
#include <cuda_runtime.h>
__global__ void dft(const float2* x, float2* X, int N) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= N) return;
  double re = 0, im = 0;
  long long idx = 0;
  for (int n = 0; n < N; ++n) {
    double s, c;
    sincospi(2.0 * idx / N, &s, &c);  // should be -2.0 * idx / N
    re += x[n].x * c - x[n].y * s;
    im += x[n].x * s + x[n].y * c;
    idx = (idx + k) % N;
  }
  X[k] = make_float2(float(re), float(im));
}
extern "C" void solve(const float* signal, float* spectrum, int N) {
  dft<<<(N + 255) / 256, 256>>>(reinterpret_cast<const float2*>(signal), reinterpret_cast<float2*>(spectrum), N);
  cudaDeviceSynchronize();
}
