// Rung 2: one pass over the keys with an online softmax ("flash attention"), no score matrix in memory.
// A block of 4 warps owns 16 query rows (4 per warp) and walks K and V in tiles of 32 keys staged in shared memory.
// Per tile, lane j of a warp scores key j against the warp's 4 rows; each row keeps a running maximum m, a running
// sum l of exp(s - m) and its output row o, and when a tile raises the maximum, l and o are rescaled by
// exp(m_old - m_new) before the tile's weights are added. Rung 1 wrote, reread and rewrote the M x N scores in
// global memory; here they never leave registers, and the output is divided by l once at the end.
#include <cuda_runtime.h>

#include <math.h>

#define DMAX 128                     // largest head dimension of the constraints
#define BK 32                        // keys per tile: one per lane when scoring
#define ROWS 4                       // query rows per warp
#define WARPS 4
#define BQ (WARPS * ROWS)            // query rows per block
#define THREADS (WARPS * 32)
#define COLS (DMAX / 32)             // output columns per lane: lane, lane + 32, lane + 64, lane + 96
#define FULL 0xffffffffu

__device__ float warp_max(float v) {  // every lane gets the result
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
  return v;
}

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(FULL, v, o);
  return v;
}

__global__ void __launch_bounds__(THREADS) attention_online(const float* Q, const float* K, const float* V,
                                                            float* out, int M, int N, int d, float scale) {
  __shared__ float Qs[BQ][DMAX];
  __shared__ float Ks[BK][DMAX + 1];  // +1: lane j reads row j at column c, bank (j + c) % 32, so no conflicts
  __shared__ float Vs[BK][DMAX];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int q0 = blockIdx.x * BQ;  // first query row of this block
  for (int i = tid; i < BQ * d; i += THREADS) {
    const int r = i / d, c = i % d;
    Qs[r][c] = q0 + r < M ? Q[(size_t)(q0 + r) * d + c] : 0.0f;  // rows past M compute harmless zeros
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
      Ks[r][c] = in ? K[(size_t)(k0 + r) * d + c] : 0.0f;
      Vs[r][c] = in ? V[(size_t)(k0 + r) * d + c] : 0.0f;
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
    if (row >= M) break;
    const float inv = 1.0f / l[r];
    for (int t = 0; t < COLS; ++t)
      if (lane + 32 * t < d) out[(size_t)row * d + lane + 32 * t] = o[r][t] * inv;
  }
}

// Q is M x d, K and V are N x d, output is M x d, all row-major device pointers; d <= 128.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  const float scale = 1.0f / sqrtf((float)d);
  attention_online<<<(M + BQ - 1) / BQ, THREADS>>>(Q, K, V, output, M, N, d, scale);
  cudaDeviceSynchronize();
}
