// Rung 2: flash-attention tiles in shared memory for heads of up to 128 columns (the benchmarks' d_k is 64).
// Rung 1 gave each (row, head) its own warp, which read all of K and V for itself, key by key. Here a block of 4 warps
// owns 16 query rows of one head (4 per warp) and stages K and V in tiles of 32 keys in shared memory, so each tile is
// read from global memory once for 16 rows; lane j scores key j of the tile against the warp's 4 rows, and the online
// softmax (running max m, running sum l, rescale by exp(m_old - m_new)) is applied per tile instead of per key.
// Wider heads (up to 1024 columns, only in the tests) keep rung 1's warp-per-row kernel.
#include <cuda_runtime.h>

#include <math.h>

#define FULL 0xffffffffu

// ---- d_k <= 128: tiled kernel ----
#define DMAX 128                     // largest head width of the tiled kernel
#define BK 32                        // keys per tile: one per lane when scoring
#define ROWS 4                       // query rows per warp
#define WARPS 4
#define BQ (WARPS * ROWS)            // query rows per block
#define THREADS (WARPS * 32)
#define COLS (DMAX / 32)             // output columns per lane: lane, lane + 32, lane + 64, lane + 96

__device__ float warp_max(float v) {  // every lane gets the result
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
  return v;
}

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(FULL, v, o);
  return v;
}

// grid: (query tiles, heads). Head hd of a matrix is its column slice starting at hd * d, row stride d_model.
__global__ void __launch_bounds__(THREADS) attention_tiles(const float* Q, const float* K, const float* V, float* out,
                                                           int N, int d_model, int d, float scale) {
  __shared__ float Qs[BQ][DMAX];
  __shared__ float Ks[BK][DMAX + 1];  // +1: lane j reads row j at column c, bank (j + c) % 32, so no conflicts
  __shared__ float Vs[BK][DMAX];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int q0 = blockIdx.x * BQ;  // first query row of this block
  const size_t offset = (size_t)blockIdx.y * d;
  for (int i = tid; i < BQ * d; i += THREADS) {
    const int r = i / d, c = i % d;
    Qs[r][c] = q0 + r < N ? Q[(size_t)(q0 + r) * d_model + offset + c] : 0.0f;  // rows past N compute harmless zeros
  }

  float m[ROWS], l[ROWS], o[ROWS][COLS], p[ROWS];
  for (int r = 0; r < ROWS; ++r) {
    m[r] = -INFINITY;  // nothing seen yet
    l[r] = 0.0f;
    for (int t = 0; t < COLS; ++t) o[r][t] = 0.0f;
  }

  for (int k0 = 0; k0 < N; k0 += BK) {
    __syncthreads();  // the previous tile is consumed (first time: the Q tile is complete)
    for (int i = tid; i < BK * d; i += THREADS) {
      const int r = i / d, c = i % d;
      const bool in = k0 + r < N;
      Ks[r][c] = in ? K[(size_t)(k0 + r) * d_model + offset + c] : 0.0f;
      Vs[r][c] = in ? V[(size_t)(k0 + r) * d_model + offset + c] : 0.0f;
    }
    __syncthreads();

    float s[ROWS] = {};
    for (int c = 0; c < d; ++c) {
      const float kc = Ks[lane][c];
      for (int r = 0; r < ROWS; ++r) s[r] = fmaf(Qs[warp * ROWS + r][c], kc, s[r]);  // Qs: one address, broadcast
    }
    const bool key = k0 + lane < N;  // lanes past the last key take no part in the softmax
    for (int r = 0; r < ROWS; ++r) {
      const float sr = key ? s[r] * scale : -INFINITY;
      const float m_new = fmaxf(m[r], warp_max(sr));  // finite: every tile holds at least one key
      const float correction = expf(m[r] - m_new);   // exp(-inf) = 0 on the first tile
      p[r] = expf(sr - m_new);                        // 0 for lanes past the last key
      l[r] = l[r] * correction + warp_sum(p[r]);
      m[r] = m_new;
      for (int t = 0; t < COLS; ++t) o[r][t] *= correction;
    }
    // o += P V for this tile: key j's weight comes from lane j by shuffle, V's row j from shared memory.
    for (int j = 0; j < BK; ++j) {
      float v[COLS];
      for (int t = 0; t < COLS; ++t) v[t] = lane + 32 * t < d ? Vs[j][lane + 32 * t] : 0.0f;
      for (int r = 0; r < ROWS; ++r) {
        const float pj = __shfl_sync(FULL, p[r], j);
        for (int t = 0; t < COLS; ++t) o[r][t] = fmaf(pj, v[t], o[r][t]);
      }
    }
  }

  for (int r = 0; r < ROWS; ++r) {
    const int row = q0 + warp * ROWS + r;
    if (row >= N) break;
    const float inv = 1.0f / l[r];
    for (int t = 0; t < COLS; ++t)
      if (lane + 32 * t < d) out[(size_t)row * d_model + offset + lane + 32 * t] = o[r][t] * inv;
  }
}

// ---- d_k > 128: rung 1's kernel, one warp per (query row, head) ----
#define MAX_COLS 32  // columns per lane: 32 lanes * 32 = 1024, the largest d_k
#define ROW_WARPS 4

__global__ void __launch_bounds__(ROW_WARPS * 32) attention_warp(const float* Q, const float* K, const float* V,
                                                                 float* out, int N, int d_model, int h, float scale) {
  const int lane = threadIdx.x % 32;
  const long long task = (long long)blockIdx.x * ROW_WARPS + threadIdx.x / 32;  // one (row, head) pair per warp
  if (task >= (long long)N * h) return;  // the whole warp leaves together, so the shuffles below see 32 lanes
  const int row = (int)(task / h), head = (int)(task % h);
  const int d_k = d_model / h;
  const int cols = (d_k + 31) / 32;
  const size_t offset = (size_t)head * d_k;

  float q[MAX_COLS], o[MAX_COLS];
#pragma unroll
  for (int t = 0; t < MAX_COLS; ++t) {
    const int c = lane + 32 * t;
    q[t] = t < cols && c < d_k ? Q[(size_t)row * d_model + offset + c] : 0.0f;
    o[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    const float* k = K + (size_t)j * d_model + offset;
    const float* v = V + (size_t)j * d_model + offset;
    float s = 0.0f;
#pragma unroll
    for (int t = 0; t < MAX_COLS; ++t) {
      const int c = lane + 32 * t;
      if (t < cols && c < d_k) s = fmaf(q[t], k[c], s);
    }
    s = warp_sum(s) * scale;
    const float m_new = fmaxf(m, s);
    const float correction = expf(m - m_new);
    const float p = expf(s - m_new);
    l = fmaf(l, correction, p);
#pragma unroll
    for (int t = 0; t < MAX_COLS; ++t) {
      const int c = lane + 32 * t;
      if (t < cols && c < d_k) o[t] = fmaf(p, v[c], o[t] * correction);
    }
    m = m_new;
  }
  const float inv = 1.0f / l;
#pragma unroll
  for (int t = 0; t < MAX_COLS; ++t) {
    const int c = lane + 32 * t;
    if (t < cols && c < d_k) out[(size_t)row * d_model + offset + c] = o[t] * inv;
  }
}

// Q, K, V and output are N x d_model, row-major device pointers; h divides d_model.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int N, int d_model, int h) {
  const int d_k = d_model / h;
  const float scale = 1.0f / sqrtf((float)d_k);
  if (d_k <= DMAX) {
    const dim3 grid((N + BQ - 1) / BQ, h);
    attention_tiles<<<grid, THREADS>>>(Q, K, V, output, N, d_model, d_k, scale);
  } else {
    const long long warps = (long long)N * h;
    attention_warp<<<(unsigned)((warps + ROW_WARPS - 1) / ROW_WARPS), ROW_WARPS * 32>>>(Q, K, V, output, N, d_model,
                                                                                         h, scale);
  }
  cudaDeviceSynchronize();
}
