// Rung 2: the first 11 stages in shared memory. After the bit-reversal permutation, the first s stages of a
// decimation-in-time FFT only combine values inside aligned runs of 2^s, so one block of 1024 threads loads a run of
// 2048 values (gathering them from their bit-reversed places in the input, so no separate permutation pass), does
// all 11 stages on chip and writes the run back once. Only the stages of span 2048 and more still go through global
// memory, two at a time (a radix-4 step: each thread reads four values and writes four), so N = 262,144 takes one
// shared-memory pass and four global ones instead of a permutation and 18 stages. Lengths that are not powers of two
// use Bluestein's chirp-z transform over this FFT as in rung 1, with its scratch kept between calls.
#include <cuda_runtime.h>

#define RUN 2048      // values per block in the shared-memory pass
#define RUN_LOG2 11

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ __forceinline__ float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 conjf2(float2 a) { return make_float2(a.x, -a.y); }
// exp(sign i pi j / half)
__device__ __forceinline__ float2 twiddle(int j, int half, float sign) {
  float s, c;
  sincospif(sign * static_cast<float>(j) / static_cast<float>(half), &s, &c);
  return make_float2(c, s);
}

// Stages of span 1 .. run/2 on runs of `run` values (run = min(n, RUN)); blockDim.x = run / 2. Value p of the
// bit-reversed order is src[reverse(p)].
__global__ void __launch_bounds__(RUN / 2) shared_stages(const float2* src, float2* dst, int log2n, int run,
                                                         float sign) {
  __shared__ float2 sh[RUN];
  const int base = blockIdx.x * run;
  for (int p = threadIdx.x; p < run; p += blockDim.x) {
    const unsigned q = __brev(static_cast<unsigned>(base + p)) >> (32 - log2n);
    sh[p] = src[q];
  }
  __syncthreads();
  const int t = threadIdx.x;  // one butterfly per thread and stage
  for (int half = 1; half < run; half *= 2) {
    const int j = t & (half - 1);
    const int i = (t - j) * 2 + j;
    const float2 u = sh[i], v = cmul(sh[i + half], twiddle(j, half, sign));
    sh[i] = cadd(u, v);
    sh[i + half] = csub(u, v);
    __syncthreads();
  }
  for (int p = threadIdx.x; p < run; p += blockDim.x) dst[base + p] = sh[p];
}

// Two stages at once, spans half and 2 * half: each thread takes the four values a group of 4 * half shares at
// offset j (a, b, c, d at j, j + half, j + 2 half, j + 3 half) through both stages.
__global__ void radix4_stage(float2* x, int n, int half, float sign) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n / 4) return;
  const int j = t & (half - 1);
  const int i = (t - j) * 4 + j;
  float2 a = x[i], b = x[i + half], c = x[i + 2 * half], d = x[i + 3 * half];
  // stage of span half: (a, b) and (c, d) with twiddle exp(sign i pi j / half)
  const float2 w1 = twiddle(j, half, sign);
  const float2 bw = cmul(b, w1), dw = cmul(d, w1);
  const float2 a1 = cadd(a, bw), b1 = csub(a, bw), c1 = cadd(c, dw), d1 = csub(c, dw);
  // stage of span 2 half: (a1, c1) with exp(sign i pi j / (2 half)), (b1, d1) with the twiddle of j + half
  const float2 c2 = cmul(c1, twiddle(j, 2 * half, sign)), d2 = cmul(d1, twiddle(j + half, 2 * half, sign));
  x[i] = cadd(a1, c2);
  x[i + 2 * half] = csub(a1, c2);
  x[i + half] = cadd(b1, d2);
  x[i + 3 * half] = csub(b1, d2);
}

__global__ void radix2_stage(float2* x, int n, int half, float sign) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n / 2) return;
  const int j = t & (half - 1);
  const int i = (t - j) * 2 + j;
  const float2 u = x[i], v = cmul(x[i + half], twiddle(j, half, sign));
  x[i] = cadd(u, v);
  x[i + half] = csub(u, v);
}

// dst = FFT(src) (sign -1) or the unnormalised inverse (sign +1); n a power of two >= 2, src != dst.
void fft_pow2(const float2* src, float2* dst, int n, float sign) {
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  const int run = n < RUN ? n : RUN;
  shared_stages<<<n / run, run / 2>>>(src, dst, log2n, run, sign);
  int half = run;
  const int threads = 256;
  for (; 4 * half <= n; half *= 4) radix4_stage<<<(n / 4 + threads - 1) / threads, threads>>>(dst, n, half, sign);
  if (half < n) radix2_stage<<<(n / 2 + threads - 1) / threads, threads>>>(dst, n, half, sign);
}

__global__ void make_chirp(float2* c, int N) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= N) return;
  const long long q = (static_cast<long long>(j) * j) % (2LL * N);
  double s, co;
  sincospi(static_cast<double>(q) / N, &s, &co);
  c[j] = make_float2(static_cast<float>(co), static_cast<float>(s));
}

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
  // Scratch for the chirp and four m-point arrays, kept between calls and grown when a larger N comes.
  static float2* scratch = nullptr;
  static size_t scratch_count = 0;
  const size_t need = static_cast<size_t>(N) + 4 * static_cast<size_t>(m);
  if (need > scratch_count) {
    cudaFree(scratch);
    cudaMalloc(&scratch, sizeof(float2) * need);
    scratch_count = need;
  }
  float2 *c = scratch, *a = c + N, *b = a + m, *fa = b + m, *fb = fa + m;
  const int threads = 256;
  make_chirp<<<(N + threads - 1) / threads, threads>>>(c, N);
  bluestein_setup<<<(m + threads - 1) / threads, threads>>>(x, c, a, b, N, m);
  fft_pow2(a, fa, m, -1.0f);
  fft_pow2(b, fb, m, -1.0f);
  pointwise_multiply<<<(m + threads - 1) / threads, threads>>>(fa, fb, m);
  fft_pow2(fa, a, m, +1.0f);
  bluestein_finish<<<(N + threads - 1) / threads, threads>>>(a, c, X, N, m);
  cudaDeviceSynchronize();
}
