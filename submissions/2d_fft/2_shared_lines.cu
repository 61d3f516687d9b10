// Rung 2: each 1D transform done by one block in shared memory, columns turned into rows by transposes. A block
// loads a whole line (at most 4096 values, 32 KiB) into shared memory; a power-of-two line is transformed there by
// a radix-2 FFT (loaded in bit-reversed order, log2(L) stages between barriers), any other length by its direct DFT
// from the line in shared memory. Rows are transformed from signal into spectrum; a tiled transpose turns spectrum
// (M x N) into scratch (N x M), whose rows (the columns) are transformed in place, and a second transpose brings the
// result back into spectrum. Global memory sees four reads and four writes of the matrix, all coalesced, against
// the naive rung's O(M + N) reads per output.
#include <cuda_runtime.h>

#define MAX_LINE 4096
#define LINE_THREADS 512
#define TILE 32

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// One line of length L per block (line blockIdx.x, contiguous); in and out may be the same line (it is read whole
// into shared memory before anything is written). w[t] = exp(-2 pi i t / L), used by the direct DFT only.
__global__ void __launch_bounds__(LINE_THREADS) transform_lines(const float2* in, float2* out, int L, int log2L,
                                                                const float2* w) {
  __shared__ float2 sh[MAX_LINE];
  const float2* src = in + static_cast<size_t>(blockIdx.x) * L;
  float2* dst = out + static_cast<size_t>(blockIdx.x) * L;
  const bool pow2 = (L & (L - 1)) == 0;
  for (int p = threadIdx.x; p < L; p += blockDim.x)
    sh[p] = pow2 && L > 1 ? src[__brev(static_cast<unsigned>(p)) >> (32 - log2L)] : src[p];
  __syncthreads();
  if (pow2) {
    for (int half = 1; half < L; half *= 2) {
      for (int t = threadIdx.x; t < L / 2; t += blockDim.x) {
        const int j = t & (half - 1);
        const int i = (t - j) * 2 + j;
        float s, c;
        sincospif(-static_cast<float>(j) / static_cast<float>(half), &s, &c);
        const float2 u = sh[i], v = cmul(sh[i + half], make_float2(c, s));
        sh[i] = make_float2(u.x + v.x, u.y + v.y);
        sh[i + half] = make_float2(u.x - v.x, u.y - v.y);
      }
      __syncthreads();
    }
    for (int p = threadIdx.x; p < L; p += blockDim.x) dst[p] = sh[p];
  } else {
    for (int k = threadIdx.x; k < L; k += blockDim.x) {
      float2 acc = make_float2(0.f, 0.f);
      int idx = 0;
      for (int j = 0; j < L; ++j) {
        const float2 p = cmul(sh[j], __ldg(&w[idx]));
        acc.x += p.x;
        acc.y += p.y;
        idx += k;
        if (idx >= L) idx -= L;
      }
      dst[k] = acc;
    }
  }
}

// out (cols x rows) = in (rows x cols) transposed, through a 32 x 33 shared tile (the extra column avoids bank
// conflicts); a block of 32 x 8 threads moves one tile.
__global__ void transpose(const float2* in, float2* out, int rows, int cols) {
  __shared__ float2 tile[TILE][TILE + 1];
  const int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
  for (int dy = threadIdx.y; dy < TILE; dy += blockDim.y) {
    const int r = r0 + dy, c = c0 + threadIdx.x;
    if (r < rows && c < cols) tile[dy][threadIdx.x] = in[static_cast<size_t>(r) * cols + c];
  }
  __syncthreads();
  for (int dy = threadIdx.y; dy < TILE; dy += blockDim.y) {
    const int c = c0 + dy, r = r0 + threadIdx.x;  // out row c, column r
    if (c < cols && r < rows) out[static_cast<size_t>(c) * rows + r] = tile[threadIdx.x][dy];
  }
}

__global__ void make_twiddles(float2* w, int L) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= L) return;
  double s, c;
  sincospi(-2.0 * t / L, &s, &c);
  w[t] = make_float2(static_cast<float>(c), static_cast<float>(s));
}

static int log2_of(int L) {
  int k = 0;
  while ((1 << k) < L) ++k;
  return k;
}

extern "C" void solve(const float* signal, float* spectrum, int M, int N) {
  const float2* x = reinterpret_cast<const float2*>(signal);
  float2* X = reinterpret_cast<float2*>(spectrum);
  // Scratch for the transposed matrix and the two twiddle tables, kept between calls and grown when needed.
  static float2* scratch = nullptr;
  static size_t scratch_count = 0;
  const size_t need = static_cast<size_t>(M) * N + M + N;
  if (need > scratch_count) {
    cudaFree(scratch);
    cudaMalloc(&scratch, sizeof(float2) * need);
    scratch_count = need;
  }
  float2 *T = scratch, *wN = T + static_cast<size_t>(M) * N, *wM = wN + N;
  const int threads = 256;
  make_twiddles<<<(N + threads - 1) / threads, threads>>>(wN, N);
  make_twiddles<<<(M + threads - 1) / threads, threads>>>(wM, M);
  transform_lines<<<M, LINE_THREADS>>>(x, X, N, log2_of(N), wN);  // rows, into spectrum
  const dim3 tile_threads(TILE, 8);
  transpose<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), tile_threads>>>(X, T, M, N);
  transform_lines<<<N, LINE_THREADS>>>(T, T, M, log2_of(M), wM);  // columns, as rows of T, in place
  transpose<<<dim3((M + TILE - 1) / TILE, (N + TILE - 1) / TILE), tile_threads>>>(T, X, N, M);
  cudaDeviceSynchronize();
}
