// Rung 2: a block of 256 threads owns 32 consecutive query rows. Their keys are the sinks below all their windows
// plus one span of consecutive keys (the union of the windows), so each key row is loaded once per block instead of
// once per query: K and V stream through shared memory in tiles of 32 keys, and each row keeps an online softmax (a
// running max m and sum l; when m grows, what was summed so far is rescaled by exp(m_old - m_new)). Each thread
// scores 2 x 2 (query, key) pairs and accumulates 4 x 4 (query, column) outputs in registers.
#include <cuda_runtime.h>

#include <math.h>

#define ROWS 32     // query rows per block
#define KEYS 32     // keys per tile (one per lane in the softmax step)
#define THREADS 256
#define FULL 0xffffffffu

// Whether query i sees key j: causal, and a sink or inside the window.
__device__ bool visible(int i, int j, int num_sinks, int window_size) {
  return j <= i && (j < num_sinks || j >= i - window_size + 1);
}

__global__ void __launch_bounds__(THREADS)
    sink_attention(const float* Q, const float* K, const float* V, float* out, int M, int d, int num_sinks,
                   int window_size, float scale) {
  extern __shared__ float smem[];
  const int ld = d | 1;                   // odd stride: a warp reading one column of 16 rows hits 16 banks
  const int ldv = (d + 31) / 32 * 32;     // V rows padded to whole warps, the padding 0
  float* Qs = smem;                       // ROWS x ld
  float* Ks = Qs + ROWS * ld;             // KEYS x ld
  float* Vs = Ks + KEYS * ld;             // KEYS x ldv
  float* P = Vs + KEYS * ldv;             // ROWS x (KEYS + 1): scores, then weights
  float* row_max = P + ROWS * (KEYS + 1);
  float* row_sum = row_max + ROWS;
  float* row_scale = row_sum + ROWS;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int i0 = blockIdx.x * ROWS;
  const int rows = min(ROWS, M - i0);
  // Key slots 0 .. n_sink - 1 are the sinks below every window of the block, the rest the span lo .. i0 + rows - 1.
  const int lo = max(0, i0 - window_size + 1);
  const int n_sink = min(num_sinks, lo);
  const int n_keys = n_sink + (i0 + rows - lo);

  for (int e = tid; e < ROWS * d; e += THREADS) {
    const int r = e / d, c = e % d;
    Qs[r * ld + c] = r < rows ? Q[(size_t)(i0 + r) * d + c] : 0.0f;
  }
  for (int e = tid; e < KEYS * ldv; e += THREADS) Vs[e] = 0.0f;
  if (tid < ROWS) {
    row_max[tid] = -INFINITY;
    row_sum[tid] = 0.0f;
  }

  float acc[4][4] = {};  // rows warp + 8a, columns lane + 32b
  const int tx = tid % 16, ty = tid / 16;
  for (int k0 = 0; k0 < n_keys; k0 += KEYS) {
    const int count = min(KEYS, n_keys - k0);
    __syncthreads();  // the previous tile is no longer read
    for (int e = tid; e < count * d; e += THREADS) {
      const int t = e / d, c = e % d, slot = k0 + t;
      const int j = slot < n_sink ? slot : lo + (slot - n_sink);
      Ks[t * ld + c] = K[(size_t)j * d + c];
      Vs[t * ldv + c] = V[(size_t)j * d + c];
    }
    __syncthreads();

    // Scores of rows ty, ty + 16 with the tile's keys tx, tx + 16; -inf where the query does not see the key.
    float s[2][2] = {};
    for (int c = 0; c < d; ++c) {
      const float q0 = Qs[ty * ld + c], q1 = Qs[(ty + 16) * ld + c];
      const float kk0 = Ks[tx * ld + c], kk1 = Ks[(tx + 16) * ld + c];
      s[0][0] = fmaf(q0, kk0, s[0][0]);
      s[0][1] = fmaf(q0, kk1, s[0][1]);
      s[1][0] = fmaf(q1, kk0, s[1][0]);
      s[1][1] = fmaf(q1, kk1, s[1][1]);
    }
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        const int r = ty + 16 * a, t = tx + 16 * b, slot = k0 + t;
        const int j = slot < n_sink ? slot : lo + (slot - n_sink);
        const bool seen = r < rows && t < count && visible(i0 + r, j, num_sinks, window_size);
        P[r * (KEYS + 1) + t] = seen ? s[a][b] * scale : -INFINITY;
      }
    __syncthreads();

    // Online softmax, one warp per row (rows warp, warp + 8, ...), lane = key of the tile.
    for (int r = warp; r < ROWS; r += THREADS / 32) {
      const float x = P[r * (KEYS + 1) + lane];
      float m = x;
      for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(FULL, m, o));
      const float m_old = row_max[r];
      m = fmaxf(m, m_old);
      // m = -inf: no key of this row so far; exp(-inf - -inf) would be NaN, so nothing is added or rescaled.
      const float p = m == -INFINITY ? 0.0f : expf(x - m);
      const float rescale = m == -INFINITY ? 1.0f : expf(m_old - m);
      float sum = p;
      for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(FULL, sum, o);
      P[r * (KEYS + 1) + lane] = p;
      if (lane == 0) {
        row_max[r] = m;
        row_sum[r] = row_sum[r] * rescale + sum;
        row_scale[r] = rescale;
      }
    }
    __syncthreads();

    // acc = acc * rescale + weights x V over the tile.
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) acc[a][b] *= row_scale[warp + 8 * a];
    for (int t = 0; t < count; ++t) {
      float p[4], v[4];
      for (int a = 0; a < 4; ++a) p[a] = P[(warp + 8 * a) * (KEYS + 1) + t];
      for (int b = 0; b < 4; ++b) v[b] = lane + 32 * b < ldv ? Vs[t * ldv + lane + 32 * b] : 0.0f;
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) acc[a][b] = fmaf(p[a], v[b], acc[a][b]);
    }
  }

  for (int a = 0; a < 4; ++a) {
    const int r = warp + 8 * a;
    if (r >= rows) continue;
    for (int b = 0; b < 4; ++b) {
      const int c = lane + 32 * b;
      if (c < d) out[(size_t)(i0 + r) * d + c] = acc[a][b] / row_sum[r];
    }
  }
}

// Q, K, V, output are M x d row-major device pointers; d <= 128, 1 <= num_sinks <= 16, 1 <= window_size <= M.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d, int num_sinks,
                      int window_size) {
  const int ld = d | 1, ldv = (d + 31) / 32 * 32;
  const size_t smem = sizeof(float) * ((ROWS + KEYS) * ld + KEYS * ldv + ROWS * (KEYS + 1) + 3 * ROWS);
  // Up to 54 KB: above the 48 KB a kernel gets without asking.
  cudaFuncSetAttribute(sink_attention, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  const float scale = 1.0f / sqrtf((float)d);
  sink_attention<<<(M + ROWS - 1) / ROWS, THREADS, smem>>>(Q, K, V, output, M, d, num_sinks, window_size, scale);
  cudaDeviceSynchronize();
}
