// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case example_impulse_2x2 --case random_16x16 --case column_4096x1
// A 1D DFT of every row and nothing more: the column pass is forgotten. Right whenever M = 1 (row_1x4, row_1x4096),
// where the columns have one value each. The statement's example already fails (the impulse's rows transform to
// [1, 1] and [0, 0]; only the column pass makes the second row ones), on random_16x16 almost every element is wrong,
// and column_4096x1 (rows of one value) gets its input back instead of a 4096-point transform.
#include <cuda_runtime.h>

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// w[t] = exp(-2 pi i t / L)
__global__ void make_twiddles(float2* w, int L) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= L) return;
  double s, c;
  sincospi(-2.0 * t / L, &s, &c);
  w[t] = make_float2(static_cast<float>(c), static_cast<float>(s));
}

// rows[m][l] = sum_n x[m][n] w_N[n l mod N]; thread (l, m).
__global__ void dft_rows(const float2* x, float2* rows, const float2* wN, int M, int N) {
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = blockIdx.y;
  if (l >= N) return;
  const float2* row = x + static_cast<size_t>(m) * N;
  float2 acc = make_float2(0.f, 0.f);
  int idx = 0;
  for (int n = 0; n < N; ++n) {
    const float2 p = cmul(row[n], wN[idx]);
    acc.x += p.x;
    acc.y += p.y;
    idx += l;
    if (idx >= N) idx -= N;
  }
  rows[static_cast<size_t>(m) * N + l] = acc;
}

// X[k][l] = sum_m rows[m][l] w_M[m k mod M]; thread (l, k): a warp reads consecutive l of one row, coalesced.
__global__ void dft_columns(const float2* rows, float2* X, const float2* wM, int M, int N) {
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = blockIdx.y;
  if (l >= N) return;
  float2 acc = make_float2(0.f, 0.f);
  int idx = 0;
  for (int m = 0; m < M; ++m) {
    const float2 p = cmul(rows[static_cast<size_t>(m) * N + l], wM[idx]);
    acc.x += p.x;
    acc.y += p.y;
    idx += k;
    if (idx >= M) idx -= M;
  }
  X[static_cast<size_t>(k) * N + l] = acc;
}

extern "C" void solve(const float* signal, float* spectrum, int M, int N) {
  float2 *rows, *wN, *wM;
  cudaMalloc(&rows, sizeof(float2) * static_cast<size_t>(M) * N);
  cudaMalloc(&wN, sizeof(float2) * N);
  cudaMalloc(&wM, sizeof(float2) * M);
  const int threads = 256;
  make_twiddles<<<(N + threads - 1) / threads, threads>>>(wN, N);
  make_twiddles<<<(M + threads - 1) / threads, threads>>>(wM, M);
  const dim3 grid_rows((N + threads - 1) / threads, M), grid_cols((N + threads - 1) / threads, M);
  dft_rows<<<grid_rows, threads>>>(reinterpret_cast<const float2*>(signal), reinterpret_cast<float2*>(spectrum), wN,
                                   M, N);  // the column pass is missing
  cudaDeviceSynchronize();
  cudaFree(rows);
  cudaFree(wN);
  cudaFree(wM);
}
