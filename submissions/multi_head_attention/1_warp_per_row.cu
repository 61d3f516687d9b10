// Rung 1: one warp per (query row, head), one pass over the keys with an online softmax; nothing but the output is
// written to memory. Lane t holds the head's columns t, t + 32, ... of the query row and of the output row (up to 32
// each: d_k <= 1024). Per key the warp forms the dot product by a shuffle reduction, keeps a running maximum m and a
// running sum l of exp(s - m), rescales l and its output row by exp(m_old - m_new) when m grows, and adds p * V's row.
// The output row is divided by l once at the end. Head hd is the column slice [hd * d_k, (hd + 1) * d_k) of each row.
#include <cuda_runtime.h>

#include <math.h>

#define MAX_COLS 32  // columns per lane: 32 lanes * 32 = 1024, the largest d_k
#define WARPS 4      // warps per block
#define FULL 0xffffffffu

__global__ void __launch_bounds__(WARPS * 32) attention_warp(const float* Q, const float* K, const float* V,
                                                             float* out, int N, int d_model, int h, float scale) {
  const int lane = threadIdx.x % 32;
  const long long task = (long long)blockIdx.x * WARPS + threadIdx.x / 32;  // one (row, head) pair per warp
  if (task >= (long long)N * h) return;  // the whole warp leaves together, so the shuffles below see 32 lanes
  const int row = (int)(task / h), head = (int)(task % h);
  const int d_k = d_model / h;
  const int cols = (d_k + 31) / 32;  // column groups in use, the same for every lane
  const size_t offset = (size_t)head * d_k;

  float q[MAX_COLS], o[MAX_COLS];
#pragma unroll
  for (int t = 0; t < MAX_COLS; ++t) {
    const int c = lane + 32 * t;
    q[t] = t < cols && c < d_k ? Q[(size_t)row * d_model + offset + c] : 0.0f;
    o[t] = 0.0f;
  }

  float m = -INFINITY, l = 0.0f;  // nothing seen yet
  for (int j = 0; j < N; ++j) {
    const float* k = K + (size_t)j * d_model + offset;
    const float* v = V + (size_t)j * d_model + offset;
    float s = 0.0f;
#pragma unroll
    for (int t = 0; t < MAX_COLS; ++t) {
      const int c = lane + 32 * t;
      if (t < cols && c < d_k) s = fmaf(q[t], k[c], s);
    }
    for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(FULL, s, off);  // every lane gets the dot product
    s *= scale;
    const float m_new = fmaxf(m, s);
    const float correction = expf(m - m_new);  // exp(-inf) = 0 on the first key; exactly 1 while m stays
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
  const float scale = 1.0f / sqrtf((float)(d_model / h));
  const long long warps = (long long)N * h;
  const unsigned blocks = (unsigned)((warps + WARPS - 1) / WARPS);
  attention_warp<<<blocks, WARPS * 32>>>(Q, K, V, output, N, d_model, h, scale);
  cudaDeviceSynchronize();
}
