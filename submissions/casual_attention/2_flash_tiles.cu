// Rung 2: flash attention. A block of 4 warps owns 16 query rows (4 per warp) and walks K and V in tiles of 32 keys
// staged in shared memory, up to the diagonal of its last row; lane j scores key j against the warp's 4 rows, and each
// row keeps a running maximum, sum and output row in registers. Rung 1 read every key and value row once per query;
// here each tile is read once per 16 queries, and the mask is a select on each score. Blocks are launched heaviest
// first (the last rows see the most keys), so the long blocks do not form the tail of the grid.
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

__global__ void __launch_bounds__(THREADS) causal_flash(const float* Q, const float* K, const float* V, float* out,
                                                        int M, int d, float scale) {
  __shared__ float Qs[BQ][DMAX];
  __shared__ float Ks[BK][DMAX + 1];  // +1: lane j reads row j at column c, bank (j + c) % 32, so no conflicts
  __shared__ float Vs[BK][DMAX];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int q0 = (gridDim.x - 1 - blockIdx.x) * BQ;  // heaviest (last) query block first
  for (int i = tid; i < BQ * d; i += THREADS) {
    const int r = i / d, c = i % d;
    Qs[r][c] = q0 + r < M ? Q[(size_t)(q0 + r) * d + c] : 0.0f;  // rows past M compute harmless values
  }

  float m[ROWS], l[ROWS], o[ROWS][COLS], p[ROWS];
  for (int r = 0; r < ROWS; ++r) {
    m[r] = -INFINITY;  // nothing seen yet
    l[r] = 0.0f;
    for (int t = 0; t < COLS; ++t) o[r][t] = 0.0f;
  }

  const int k_end = min(M, q0 + BQ);  // the block's last row sees keys 0..q0 + BQ - 1
  for (int k0 = 0; k0 < k_end; k0 += BK) {
    __syncthreads();  // the previous tile is consumed (first time: the Q tile is complete)
    for (int i = tid; i < BK * d; i += THREADS) {
      const int r = i / d, c = i % d;
      const bool in = k0 + r < M;
      Ks[r][c] = in ? K[(size_t)(k0 + r) * d + c] : 0.0f;
      Vs[r][c] = in ? V[(size_t)(k0 + r) * d + c] : 0.0f;
    }
    __syncthreads();

    float s[ROWS] = {};
    for (int c = 0; c < d; ++c) {
      const float kc = Ks[lane][c];
      for (int r = 0; r < ROWS; ++r) s[r] = fmaf(Qs[warp * ROWS + r][c], kc, s[r]);  // Qs: one address, broadcast
    }
    const int key = k0 + lane;
    for (int r = 0; r < ROWS; ++r) {
      const int row = q0 + warp * ROWS + r;
      // Causal mask: key <= row. Keys past M are also past every real row; rows past M are never written.
      const float sr = key <= row && key < M ? s[r] * scale : -INFINITY;
      const float m_new = fmaxf(m[r], warp_max(sr));  // finite: key 0 is in the first tile and visible to every row
      const float correction = expf(m[r] - m_new);   // exp(-inf) = 0 on the first tile; 1 if the tile is all masked
      p[r] = expf(sr - m_new);                        // 0 for masked keys
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

// Q, K, V and output are M x d row-major device pointers; d <= 128.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  const float scale = 1.0f / sqrtf((float)d);
  causal_flash<<<(M + BQ - 1) / BQ, THREADS>>>(Q, K, V, output, M, d, scale);
  cudaDeviceSynchronize();
}
