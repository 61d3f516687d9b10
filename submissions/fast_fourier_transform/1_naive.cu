// Rung 1: the textbook radix-2 FFT, one kernel launch per stage: a bit-reversal permutation, then log2(N) stages of
// N / 2 butterflies, each thread one butterfly with its twiddle from sincospif (exact argument: j / half is a
// float with few bits). Lengths that are not powers of two go through Bluestein's chirp-z transform: with
// j k = (j^2 + k^2 - (k - j)^2) / 2, X[k] = conj(c[k]) sum_j (x[j] conj(c[j])) c[k - j] for c[j] = exp(i pi j^2 / N),
// a convolution done by three power-of-two FFTs of m >= 2N - 1 points. j^2 is reduced modulo 2N in integers before
// it becomes an angle: unreduced, pi j^2 / N in float is off by whole radians at N = 4093.
#include <cuda_runtime.h>

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ __forceinline__ float2 conjf2(float2 a) { return make_float2(a.x, -a.y); }

// dst[reverse(i)] = src[i], reverse over log2n bits (log2n >= 1).
__global__ void bit_reverse(const float2* src, float2* dst, int n, int log2n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[__brev(static_cast<unsigned>(i)) >> (32 - log2n)] = src[i];
}

// One decimation-in-time stage: groups of 2 * half, butterfly (u, v) -> (u + w v, u - w v), w = exp(sign i pi j / half).
__global__ void butterfly(float2* x, int n, int half, float sign) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n / 2) return;
  const int j = t & (half - 1);
  const int i = (t - j) * 2 + j;
  float s, c;
  sincospif(sign * static_cast<float>(j) / static_cast<float>(half), &s, &c);
  const float2 u = x[i], v = cmul(x[i + half], make_float2(c, s));
  x[i] = make_float2(u.x + v.x, u.y + v.y);
  x[i + half] = make_float2(u.x - v.x, u.y - v.y);
}

// dst = FFT(src) (sign -1) or the unnormalised inverse (sign +1); n a power of two >= 2, src != dst.
void fft_pow2(const float2* src, float2* dst, int n, float sign) {
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  const int threads = 256;
  bit_reverse<<<(n + threads - 1) / threads, threads>>>(src, dst, n, log2n);
  for (int half = 1; half < n; half *= 2) butterfly<<<(n / 2 + threads - 1) / threads, threads>>>(dst, n, half, sign);
}

// c[j] = exp(i pi j^2 / N), with j^2 reduced modulo 2N first and the angle's sine and cosine taken in double.
__global__ void make_chirp(float2* c, int N) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= N) return;
  const long long q = (static_cast<long long>(j) * j) % (2LL * N);
  double s, co;
  sincospi(static_cast<double>(q) / N, &s, &co);
  c[j] = make_float2(static_cast<float>(co), static_cast<float>(s));
}

// a[j] = x[j] conj(c[j]) for j < N, else 0; b[j] = c[|j|] on the cyclic range -N < j < N, else 0.
__global__ void bluestein_setup(const float2* x, const float2* c, float2* a, float2* b, int N, int m) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  a[j] = j < N ? cmul(x[j], conjf2(c[j])) : make_float2(0.f, 0.f);
  b[j] = j < N ? c[j] : (j > m - N ? c[m - j] : make_float2(0.f, 0.f));
}

__global__ void pointwise_multiply(float2* a, const float2* b, int m) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) a[j] = cmul(a[j], b[j]);
}

// X[k] = conj(c[k]) conv[k] / m (the inverse FFT was not normalised).
__global__ void bluestein_finish(const float2* conv, const float2* c, float2* X, int N, int m) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= N) return;
  const float2 v = cmul(conv[k], conjf2(c[k]));
  const float inv = 1.0f / static_cast<float>(m);
  X[k] = make_float2(v.x * inv, v.y * inv);
}

extern "C" void solve(const float* signal, float* spectrum, int N) {
  const float2* x = reinterpret_cast<const float2*>(signal);
  float2* X = reinterpret_cast<float2*>(spectrum);
  if (N == 1) {
    cudaMemcpy(X, x, sizeof(float2), cudaMemcpyDeviceToDevice);
    return;
  }
  if ((N & (N - 1)) == 0) {
    fft_pow2(x, X, N, -1.0f);
    cudaDeviceSynchronize();
    return;
  }
  int m = 1;
  while (m < 2 * N - 1) m *= 2;
  float2 *c, *a, *b, *fa, *fb;
  cudaMalloc(&c, sizeof(float2) * N);
  cudaMalloc(&a, sizeof(float2) * m);
  cudaMalloc(&b, sizeof(float2) * m);
  cudaMalloc(&fa, sizeof(float2) * m);
  cudaMalloc(&fb, sizeof(float2) * m);
  const int threads = 256;
  make_chirp<<<(N + threads - 1) / threads, threads>>>(c, N);
  bluestein_setup<<<(m + threads - 1) / threads, threads>>>(x, c, a, b, N, m);
  fft_pow2(a, fa, m, -1.0f);
  fft_pow2(b, fb, m, -1.0f);
  pointwise_multiply<<<(m + threads - 1) / threads, threads>>>(fa, fb, m);
  fft_pow2(fa, a, m, +1.0f);  // the cyclic convolution, times m
  bluestein_finish<<<(N + threads - 1) / threads, threads>>>(a, c, X, N, m);
  cudaDeviceSynchronize();
  cudaFree(c);
  cudaFree(a);
  cudaFree(b);
  cudaFree(fa);
  cudaFree(fb);
}
