// Rung 2: flash attention over the whole group. The G = num_q_heads / num_kv_heads query heads that share a K, V head
// are consecutive in Q, so together they are one (G * seq_len) x head_dim matrix of queries for that head: a block
// takes 32 of those rows (8 warps x 4 rows) and walks the head's keys in tiles of 32 staged in shared memory, so each
// K, V tile read from memory serves 32 query rows of any of the G heads, where rung 1 had every warp read every key
// itself. Per tile lane j scores key j against its warp's 4 rows (float4 reads of shared memory), the online softmax
// runs in base 2 (log2(e) / sqrt(head_dim) folded into Q once, exp2f), and key j's weight reaches the other lanes by
// shuffle for o += p V. Shared memory depends on head_dim (up to 99 KB), so it is dynamic.
#include <cuda_runtime.h>

#include <math.h>

#define BK 32                        // keys per tile: one per lane when scoring
#define ROWS 4                       // query rows per warp
#define WARPS 8
#define BQ (WARPS * ROWS)            // query rows per block
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

// Shared memory: Qs (BQ x d), Ks (BK x (d + 4)), Vs (BK x d), floats. Ks rows are padded by 4 so that the float4 reads
// of lanes 0..7 (one key each, same columns) land on 8 different groups of 4 banks for every d % 8 == 0.
static size_t shared_bytes(int d) { return sizeof(float) * ((size_t)BQ * d + (size_t)BK * (d + 4) + (size_t)BK * d); }

// COLS = output columns per lane (lane, lane + 32, ...): head_dim <= 32 * COLS.
template <int COLS>
__global__ void __launch_bounds__(THREADS) gqa_group_tiles(const float* Q, const float* K, const float* V, float* out,
                                                           int rows_per_head, int L, int d, float qscale) {
  extern __shared__ float4 smem4[];
  float* Qs = reinterpret_cast<float*>(smem4);
  float* Ks = Qs + BQ * d;
  float* Vs = Ks + BK * (d + 4);
  const int ks = d + 4;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int h = blockIdx.y;                   // K, V head
  const int q0 = blockIdx.x * BQ;             // first query row of this block within the group's rows
  const float* Qg = Q + (size_t)h * rows_per_head * d;
  float* Og = out + (size_t)h * rows_per_head * d;
  const float* Kh = K + (size_t)h * L * d;
  const float* Vh = V + (size_t)h * L * d;
  const int d4 = d / 4;                       // d % 8 == 0: rows are whole float4s, 16-byte aligned

  for (int i = tid; i < BQ * d4; i += THREADS) {
    const int r = i / d4, c4 = i % d4;
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // rows past the group's end compute harmless zeros
    if (q0 + r < rows_per_head) v = reinterpret_cast<const float4*>(Qg + (size_t)(q0 + r) * d)[c4];
    v.x *= qscale; v.y *= qscale; v.z *= qscale; v.w *= qscale;
    *reinterpret_cast<float4*>(Qs + r * d + 4 * c4) = v;
  }

  float m[ROWS], l[ROWS], o[ROWS][COLS], p[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    m[r] = -INFINITY;  // nothing seen yet
    l[r] = 0.0f;
#pragma unroll
    for (int t = 0; t < COLS; ++t) o[r][t] = 0.0f;
  }

  for (int k0 = 0; k0 < L; k0 += BK) {
    __syncthreads();  // the previous tile is consumed (first time: the Q tile is complete)
    for (int i = tid; i < BK * d4; i += THREADS) {
      const int r = i / d4, c4 = i % d4;
      float4 kv = make_float4(0.0f, 0.0f, 0.0f, 0.0f), vv = kv;
      if (k0 + r < L) {
        kv = reinterpret_cast<const float4*>(Kh + (size_t)(k0 + r) * d)[c4];
        vv = reinterpret_cast<const float4*>(Vh + (size_t)(k0 + r) * d)[c4];
      }
      *reinterpret_cast<float4*>(Ks + r * ks + 4 * c4) = kv;
      *reinterpret_cast<float4*>(Vs + r * d + 4 * c4) = vv;
    }
    __syncthreads();

    float s[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) s[r] = 0.0f;
    const float* krow = Ks + lane * ks;
    const float* qrow = Qs + warp * ROWS * d;
    for (int c = 0; c < d; c += 4) {
      const float4 kc = *reinterpret_cast<const float4*>(krow + c);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
        const float4 qc = *reinterpret_cast<const float4*>(qrow + r * d + c);  // one address: a broadcast
        s[r] = fmaf(qc.x, kc.x, s[r]);
        s[r] = fmaf(qc.y, kc.y, s[r]);
        s[r] = fmaf(qc.z, kc.z, s[r]);
        s[r] = fmaf(qc.w, kc.w, s[r]);
      }
    }
    const bool key = k0 + lane < L;  // lanes past the last key take no part in the softmax
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const float sr = key ? s[r] : -INFINITY;
      const float m_new = fmaxf(m[r], warp_max(sr));  // finite: every tile holds at least one key
      const float correction = exp2f(m[r] - m_new);   // exp2(-inf) = 0 on the first tile
      p[r] = exp2f(sr - m_new);                       // 0 for lanes past the last key
      l[r] = l[r] * correction + warp_sum(p[r]);
      m[r] = m_new;
#pragma unroll
      for (int t = 0; t < COLS; ++t) o[r][t] *= correction;
    }
    // o += P V for this tile: key j's weight comes from lane j by shuffle, V's row j from shared memory.
    const int keys = min(BK, L - k0);
    for (int j = 0; j < keys; ++j) {
      float v[COLS];
#pragma unroll
      for (int t = 0; t < COLS; ++t) v[t] = lane + 32 * t < d ? Vs[j * d + lane + 32 * t] : 0.0f;
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
        const float pj = __shfl_sync(FULL, p[r], j);
#pragma unroll
        for (int t = 0; t < COLS; ++t) o[r][t] = fmaf(pj, v[t], o[r][t]);
      }
    }
  }

#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const int row = q0 + warp * ROWS + r;
    if (row >= rows_per_head) break;
    const float inv = 1.0f / l[r];
#pragma unroll
    for (int t = 0; t < COLS; ++t)
      if (lane + 32 * t < d) Og[(size_t)row * d + lane + 32 * t] = o[r][t] * inv;
  }
}

template <int COLS>
static void launch(const float* Q, const float* K, const float* V, float* out, int num_q_heads, int num_kv_heads,
                   int L, int d) {
  const int rows_per_head = (num_q_heads / num_kv_heads) * L;  // the group's query rows, stacked
  const float qscale = 1.4426950408889634f / sqrtf((float)d);   // log2(e) / sqrt(d): scores in base 2
  const size_t bytes = shared_bytes(d);
  cudaFuncSetAttribute(gqa_group_tiles<COLS>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  const dim3 grid((rows_per_head + BQ - 1) / BQ, num_kv_heads);
  gqa_group_tiles<COLS><<<grid, THREADS, bytes>>>(Q, K, V, out, rows_per_head, L, d, qscale);
}

// Q, K, V, output are device pointers: Q and output [num_q_heads, seq_len, head_dim], K and V
// [num_kv_heads, seq_len, head_dim], row-major; head_dim is a multiple of 8, at most 256.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int num_q_heads,
                      int num_kv_heads, int seq_len, int head_dim) {
  if (head_dim <= 32)
    launch<1>(Q, K, V, output, num_q_heads, num_kv_heads, seq_len, head_dim);
  else if (head_dim <= 64)
    launch<2>(Q, K, V, output, num_q_heads, num_kv_heads, seq_len, head_dim);
  else if (head_dim <= 128)
    launch<4>(Q, K, V, output, num_q_heads, num_kv_heads, seq_len, head_dim);
  else
    launch<8>(Q, K, V, output, num_q_heads, num_kv_heads, seq_len, head_dim);
  cudaDeviceSynchronize();
}
