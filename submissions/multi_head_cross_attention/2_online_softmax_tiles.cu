// Rung 2: one pass over the keys with an online softmax ("flash attention"), no scores in memory, 32 queries a block.
// A block of 4 warps owns 32 queries of one head (8 per warp) and walks that head's keys in tiles of 32, staging the
// K and V slices in shared memory. Lane j scores key j of the tile against the warp's 8 queries; each query keeps a
// running maximum m, a running sum l of exp(s - m) and its output row o (lane c holds columns c, c + 32, ...); when a
// tile raises the maximum, l and o are rescaled by exp(m_old - m_new) before the tile's weights are added.
// Rung 1 read the head's whole K and V once per query; here once per 32 queries, and the scores never leave
// registers. Shared rows are padded to a multiple of 4 floats (zeros) so the dot products read float4s; K's rows are
// 4 floats more than a multiple of 32, so the 8 lanes of each float4 phase hit 8 different groups of banks.
#include <cuda_runtime.h>

#include <math.h>

#define BK 32          // keys per tile: one per lane when scoring
#define ROWS 8         // queries per warp
#define WARPS 4
#define BQ (WARPS * ROWS)  // queries per block
#define THREADS (WARPS * 32)
#define FULL 0xffffffffu

__device__ float warp_max(float v) {  // every lane gets the result
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
  return v;
}

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(FULL, v, o);
  return v;
}

// COLS = ceil(D / 32): output columns per lane. dp = D rounded up to a multiple of 4, kstride = K's padded row.
template <int COLS>
__global__ void __launch_bounds__(THREADS) attention_tiles(const float* Q, const float* K, const float* V, float* out,
                                                           int M, int N, int H, int D, int dp, int kstride,
                                                           float scale) {
  extern __shared__ float4 smem4[];  // float4: the dynamic buffer must be 16-byte aligned for the float4 reads
  float* Qs = reinterpret_cast<float*>(smem4);  // BQ x dp
  float* Ks = Qs + BQ * dp;                      // BK x kstride
  float* Vs = Ks + BK * kstride;                 // BK x dp
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int h = blockIdx.y, q0 = blockIdx.x * BQ;  // this block's head and first query
  const size_t ld = (size_t)H * D;                 // floats per row of every tensor; head h starts at column h * D
  for (int e = tid; e < BQ * dp; e += THREADS) {
    const int r = e / dp, c = e % dp;
    Qs[e] = q0 + r < M && c < D ? Q[(q0 + r) * ld + (size_t)h * D + c] : 0.0f;  // padding and rows past M: zeros
  }

  float m[ROWS], l[ROWS], o[ROWS][COLS], p[ROWS];
  for (int r = 0; r < ROWS; ++r) {
    m[r] = -INFINITY;  // nothing seen yet
    l[r] = 0.0f;
    for (int t = 0; t < COLS; ++t) o[r][t] = 0.0f;
  }

  for (int k0 = 0; k0 < N; k0 += BK) {
    __syncthreads();  // the previous tile is consumed (first time: the Q tile is complete)
    for (int e = tid; e < BK * dp; e += THREADS) {
      const int r = e / dp, c = e % dp;
      const bool in = k0 + r < N && c < D;
      const size_t g = (k0 + r) * ld + (size_t)h * D + c;
      Ks[r * kstride + c] = in ? K[g] : 0.0f;
      Vs[e] = in ? V[g] : 0.0f;
    }
    __syncthreads();

    float s[ROWS] = {};
    const float4* k4 = reinterpret_cast<const float4*>(Ks + lane * kstride);
    for (int c4 = 0; c4 < dp / 4; ++c4) {
      const float4 kv = k4[c4];
      for (int r = 0; r < ROWS; ++r) {
        const float4 qv = reinterpret_cast<const float4*>(Qs + (warp * ROWS + r) * dp)[c4];  // one address: broadcast
        s[r] = fmaf(qv.x, kv.x, fmaf(qv.y, kv.y, fmaf(qv.z, kv.z, fmaf(qv.w, kv.w, s[r]))));
      }
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
    const int keys = min(BK, N - k0);
    for (int j = 0; j < keys; ++j) {
      float v[COLS];
      for (int t = 0; t < COLS; ++t) v[t] = lane + 32 * t < D ? Vs[j * dp + lane + 32 * t] : 0.0f;
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
      if (lane + 32 * t < D) out[row * ld + (size_t)h * D + lane + 32 * t] = o[r][t] * inv;
  }
}

template <int COLS>
void launch(const float* Q, const float* K, const float* V, float* output, int M, int N, int H, int D) {
  const int dp = (D + 3) / 4 * 4;
  const int kstride = (dp + 31) / 32 * 32 + 4;  // = 4 (mod 32)
  const size_t bytes = (size_t)(BQ * dp + BK * kstride + BK * dp) * sizeof(float);  // 96.5 KiB for D = 256
  cudaFuncSetAttribute(attention_tiles<COLS>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  const dim3 grid((M + BQ - 1) / BQ, H);  // x fastest: the blocks running together share a head's K and V in L2
  attention_tiles<COLS><<<grid, THREADS, bytes>>>(Q, K, V, output, M, N, H, D, dp, kstride, 1.0f / sqrtf((float)D));
}

// Q and output are M x H x D, K and V are N x H x D, row-major device pointers; D <= 256.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int H, int D) {
  if (D <= 32)
    launch<1>(Q, K, V, output, M, N, H, D);
  else if (D <= 64)
    launch<2>(Q, K, V, output, M, N, H, D);
  else if (D <= 128)
    launch<4>(Q, K, V, output, M, N, H, D);
  else
    launch<8>(Q, K, V, output, M, N, H, D);
  cudaDeviceSynchronize();
}
