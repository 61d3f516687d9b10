// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case prime_65537
// The definition as it stands: each output a direct sum of N products in float, with exact twiddles (a table made
// in double, the index n k mod N kept by adding k and wrapping). Right on every small case, but the error of a float
// sum grows with its length: at N = 65537 the worst output misses by 1.4 to 1.6 times the tolerance (simulated
// against double; an FFT's log2(N)-deep sums use about a tenth of it there). O(N^2) is also far too slow for the
// benchmark, but this entry is about accuracy: the statement's Tolerance section explains the numbers.
#include <cuda_runtime.h>
__global__ void make_twiddles(float2* w, int N) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= N) return;
  double s, c;
  sincospi(-2.0 * t / N, &s, &c);
  w[t] = make_float2(float(c), float(s));
}
__global__ void dft(const float2* x, float2* X, const float2* w, int N) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= N) return;
  float2 acc = make_float2(0.f, 0.f);
  int idx = 0;
  for (int n = 0; n < N; ++n) {
    const float2 a = x[n], b = w[idx];
    acc.x += a.x * b.x - a.y * b.y;
    acc.y += a.x * b.y + a.y * b.x;
    idx += k;
    if (idx >= N) idx -= N;
  }
  X[k] = acc;
}
extern "C" void solve(const float* signal, float* spectrum, int N) {
  float2* w;
  cudaMalloc(&w, sizeof(float2) * N);
  make_twiddles<<<(N + 255) / 256, 256>>>(w, N);
  dft<<<(N + 255) / 256, 256>>>(reinterpret_cast<const float2*>(signal), reinterpret_cast<float2*>(spectrum), w, N);
  cudaDeviceSynchronize();
  cudaFree(w);
}
