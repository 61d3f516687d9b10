// Rung 2: the Gram matrix, n_samples * n_features^2 of the work, tiled. y is treated as one more column of X, so a
// single kernel forms the lower triangle of [X y]^T [X y], whose last row is X^T y. Each block owns a 64 x 64 tile of
// that triangle (tiles above the diagonal are skipped: X^T X is symmetric) and a slice of the samples: 16 samples at a
// time, both 64-column strips of those rows (contiguous in X: coalesced, no transposition) are staged in shared memory
// and every thread accumulates a 4 x 4 patch of outer products in registers. The sample slices are sized so that the
// grid fills the GPU even when there is a single tile (tall, thin X), and the partial sums are added with atomicAdd
// into a zeroed matrix. The factorisation and the solves are rung 1's single block.
#include <cuda_runtime.h>
#include <math.h>

constexpr int TILE = 64, BK = 16;

// Column col of [X y] at sample i; zero past the last column.
__device__ __forceinline__ float augmented(const float* X, const float* y, int i, int col, int p) {
  return col < p ? X[(size_t)i * p + col] : (col == p ? y[i] : 0.0f);
}

// grid.x: the lower-triangle tiles (tr, tc) with tc <= tr, numbered row by row; grid.y: slices of the samples.
__global__ void __launch_bounds__(256) gram_tiled(const float* __restrict__ X, const float* __restrict__ y,
                                                  float* __restrict__ G, int n, int p, int rows_per_slice) {
  const int q = p + 1;  // columns of [X y]
  int tr = 0, t = blockIdx.x;
  while (t > tr) t -= ++tr;  // tile (tr, tc = t)
  const int tc = t;
  const int r0 = tr * TILE, c0 = tc * TILE;
  const int i_begin = blockIdx.y * rows_per_slice;
  const int i_end = min(n, i_begin + rows_per_slice);
  __shared__ float Rs[BK][TILE];  // rows i..i+15 of [X y], columns r0..r0+63
  __shared__ float Cs[BK][TILE];  // the same rows, columns c0..c0+63
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (int i0 = i_begin; i0 < i_end; i0 += BK) {
    for (int e = threadIdx.x; e < BK * TILE; e += 256) {
      const int di = e / TILE, col = e % TILE, i = i0 + di;
      const bool in = i < i_end;
      Rs[di][col] = in && r0 + col < q ? augmented(X, y, i, r0 + col, p) : 0.0f;
      Cs[di][col] = in && c0 + col < q ? augmented(X, y, i, c0 + col, p) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int m = 0; m < 4; ++m) a[m] = Rs[k][ty * 4 + m];
#pragma unroll
      for (int m = 0; m < 4; ++m) b[m] = Cs[k][tx + 16 * m];
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int v = 0; v < 4; ++v) acc[u][v] = fmaf(a[u], b[v], acc[u][v]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    const int r = r0 + ty * 4 + u;
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const int c = c0 + tx + 16 * v;
      if (r < q && c <= r) atomicAdd(&G[(size_t)r * q + c], acc[u][v]);
    }
  }
}

// One block. The lower triangle of the leading p x p of G (row-major, leading dimension q) becomes L; row p of G
// holds X^T y and becomes beta.
__global__ void cholesky_solve(float* G, float* beta, int p, int q) {
  const int t = threadIdx.x, T = blockDim.x;
  float* c = G + (size_t)p * q;
  for (int k = 0; k < p; ++k) {
    if (t == 0) G[(size_t)k * q + k] = sqrtf(G[(size_t)k * q + k]);
    __syncthreads();
    const float d = G[(size_t)k * q + k];
    for (int i = k + 1 + t; i < p; i += T) G[(size_t)i * q + k] /= d;
    __syncthreads();
    for (int i = k + 1; i < p; ++i) {
      const float lik = G[(size_t)i * q + k];
      for (int j = k + 1 + t; j <= i; j += T) G[(size_t)i * q + j] -= lik * G[(size_t)j * q + k];
    }
    __syncthreads();
  }
  for (int k = 0; k < p; ++k) {
    if (t == 0) c[k] /= G[(size_t)k * q + k];
    __syncthreads();
    const float zk = c[k];
    for (int i = k + 1 + t; i < p; i += T) c[i] -= G[(size_t)i * q + k] * zk;
    __syncthreads();
  }
  for (int k = p - 1; k >= 0; --k) {
    if (t == 0) c[k] /= G[(size_t)k * q + k];
    __syncthreads();
    const float bk = c[k];
    for (int i = t; i < k; i += T) c[i] -= G[(size_t)k * q + i] * bk;
    __syncthreads();
  }
  for (int i = t; i < p; i += T) beta[i] = c[i];
}

// X, y, beta are device pointers
extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  const int n = n_samples, p = n_features, q = p + 1;
  static float* G = nullptr;  // [X y]^T [X y], q x q; kept between calls, grown when needed
  static size_t capacity = 0;
  const size_t count = (size_t)q * q;
  if (count > capacity) {
    cudaFree(G);
    cudaMalloc(&G, count * sizeof(float));
    capacity = count;
  }
  cudaMemsetAsync(G, 0, count * sizeof(float));
  static int sms = 0;
  if (sms == 0) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int tiles_side = (q + TILE - 1) / TILE;
  const int tiles = tiles_side * (tiles_side + 1) / 2;
  // About four blocks per SM in all, each slice at least 256 samples (a multiple of BK).
  int slices = (4 * sms + tiles - 1) / tiles;
  const int max_slices = (n + 255) / 256;
  if (slices > max_slices) slices = max_slices;
  if (slices < 1) slices = 1;
  int rows = (n + slices - 1) / slices;
  rows = (rows + BK - 1) / BK * BK;
  slices = (n + rows - 1) / rows;
  gram_tiled<<<dim3(tiles, slices), 256>>>(X, y, G, n, p, rows);
  cholesky_solve<<<1, 256>>>(G, beta, p, q);
  cudaDeviceSynchronize();
}
