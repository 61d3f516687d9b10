// Rung 2: tiles of 16 queries x 32 keys in shared memory, so each key row is read once per 16 queries instead of once
// per query. A block of 256 threads owns 16 query rows (heaviest, last rows first) and walks the key tiles up to its
// diagonal: the 512 scores of a tile (2 per thread, from Q and K tiles in shared memory) get the decay
// gamma^(n - m) / sqrt(d_model), or 0 above the diagonal; then thread (r, l) adds the tile's weighted rows of V into
// row r's columns l, l + 16, ... held in registers (d_model <= 256: 16 per thread).
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define BQ 16                     // query rows per block
#define BK 32                     // keys per tile
#define LANES (THREADS / BQ)      // threads per query row: 16
#define MAX_COLS (256 / LANES)    // output columns per thread at the largest d_model

__global__ void __launch_bounds__(THREADS) retention_tiles(const float* Q, const float* K, const float* V, float* out,
                                                           int S, int d, float gamma, float scale) {
  extern __shared__ float smem[];
  const int ld = d + 1;                  // padded rows of the Q and K tiles: keys in a warp hit different banks
  float* Qs = smem;                      // BQ x ld
  float* Ks = Qs + BQ * ld;              // BK x ld
  float* Vs = Ks + BK * ld;              // BK x d
  float* Ws = Vs + BK * d;               // BQ x (BK + 1)
  const int tid = threadIdx.x;
  const int q0 = (gridDim.x - 1 - blockIdx.x) * BQ;  // the last (longest) rows start first
  const int r = tid / LANES, l = tid % LANES;

  for (int e = tid; e < BQ * d; e += THREADS) {
    const int i = e / d, a = e % d;
    Qs[i * ld + a] = q0 + i < S ? Q[(size_t)(q0 + i) * d + a] : 0.0f;
  }
  float acc[MAX_COLS];
#pragma unroll
  for (int j = 0; j < MAX_COLS; ++j) acc[j] = 0.0f;

  const int last_key = min(S, q0 + BQ) - 1;  // the block's last row sees keys 0..last_key
  for (int k0 = 0; k0 <= last_key; k0 += BK) {
    __syncthreads();  // the previous tile has been used (and Qs is written)
    for (int e = tid; e < BK * d; e += THREADS) {
      const int j = e / d, a = e % d;
      const bool in = k0 + j < S;
      Ks[j * ld + a] = in ? K[(size_t)(k0 + j) * d + a] : 0.0f;
      Vs[j * d + a] = in ? V[(size_t)(k0 + j) * d + a] : 0.0f;
    }
    __syncthreads();
    // Scores: row r against keys l and l + 16 of the tile.
#pragma unroll
    for (int h = 0; h < BK / LANES; ++h) {
      const int j = l + h * LANES;
      const int n = q0 + r, m = k0 + j;
      float s = 0.0f;
      if (m <= n) {
        for (int a = 0; a < d; ++a) s = fmaf(Qs[r * ld + a], Ks[j * ld + a], s);
        s *= scale * powf(gamma, (float)(n - m));
      }
      Ws[r * (BK + 1) + j] = s;
    }
    __syncthreads();
    const int keys = min(BK, last_key + 1 - k0);
    for (int j = 0; j < keys; ++j) {
      const float wj = Ws[r * (BK + 1) + j];
#pragma unroll
      for (int c = 0; c < MAX_COLS; ++c)
        if (l + c * LANES < d) acc[c] = fmaf(wj, Vs[j * d + l + c * LANES], acc[c]);
    }
  }
  const int n = q0 + r;
  if (n < S) {
#pragma unroll
    for (int c = 0; c < MAX_COLS; ++c)
      if (l + c * LANES < d) out[(size_t)n * d + l + c * LANES] = acc[c];
  }
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int seq_len, int d_model,
                      float gamma) {
  if (seq_len <= 0 || d_model <= 0) return;
  const size_t bytes = sizeof(float) * ((size_t)(BQ + BK) * (d_model + 1) + (size_t)BK * d_model + BQ * (BK + 1));
  cudaFuncSetAttribute(retention_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  const int blocks = (seq_len + BQ - 1) / BQ;
  retention_tiles<<<blocks, THREADS, bytes>>>(Q, K, V, output, seq_len, d_model, gamma,
                                               1.0f / sqrtf((float)d_model));
  cudaDeviceSynchronize();
}
