// Rung 1: one warp per query row, one pass over the keys with an online softmax. Query head g reads K, V head
// g / (num_q_heads / num_kv_heads): the group's heads are consecutive. Lane t holds columns t, t + 32, ... of the
// (pre-scaled) query and of the running output; per key the warp sums q . k with shuffles, raises the running maximum
// m if needed (rescaling the running sum l and the output by exp(m_old - m_new)) and adds exp(s - m) * v.
#include <cuda_runtime.h>

#include <math.h>

#define DMAX 256                 // largest head_dim of the constraints
#define COLS (DMAX / 32)         // columns per lane
#define WARPS 8                  // query rows per block: consecutive rows of a head read the same keys (L1 hits)
#define FULL 0xffffffffu

__global__ void __launch_bounds__(WARPS * 32) gqa_warp_per_row(const float* Q, const float* K, const float* V,
                                                               float* out, int num_q_heads, int num_kv_heads,
                                                               int seq_len, int head_dim, float scale) {
  const int lane = threadIdx.x % 32;
  const long long row = (long long)blockIdx.x * WARPS + threadIdx.x / 32;  // over num_q_heads * seq_len
  if (row >= (long long)num_q_heads * seq_len) return;  // the whole warp leaves together
  const int g = (int)(row / seq_len);                   // query head
  const int h = g / (num_q_heads / num_kv_heads);       // its K, V head
  const float* q = Q + row * head_dim;
  const float* Kh = K + (size_t)h * seq_len * head_dim;
  const float* Vh = V + (size_t)h * seq_len * head_dim;

  float qr[COLS], o[COLS];
#pragma unroll
  for (int t = 0; t < COLS; ++t) {
    const int c = lane + 32 * t;
    qr[t] = c < head_dim ? q[c] * scale : 0.0f;
    o[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;  // running maximum and running sum of exp(s - m)
  for (int j = 0; j < seq_len; ++j) {
    const float* k = Kh + (size_t)j * head_dim;
    const float* v = Vh + (size_t)j * head_dim;
    float s = 0.0f;
#pragma unroll
    for (int t = 0; t < COLS; ++t)
      if (lane + 32 * t < head_dim) s = fmaf(qr[t], k[lane + 32 * t], s);
    for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(FULL, s, off);  // every lane gets the score
    const float m_new = fmaxf(m, s);
    const float correction = expf(m - m_new);  // exp(-inf) = 0 for the first key
    const float p = expf(s - m_new);
    l = l * correction + p;
#pragma unroll
    for (int t = 0; t < COLS; ++t)
      if (lane + 32 * t < head_dim) o[t] = fmaf(p, v[lane + 32 * t], o[t] * correction);
    m = m_new;
  }
  const float inv = 1.0f / l;
  float* dst = out + row * head_dim;
#pragma unroll
  for (int t = 0; t < COLS; ++t)
    if (lane + 32 * t < head_dim) dst[lane + 32 * t] = o[t] * inv;
}

// Q, K, V, output are device pointers: Q and output [num_q_heads, seq_len, head_dim], K and V
// [num_kv_heads, seq_len, head_dim], row-major.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int num_q_heads,
                      int num_kv_heads, int seq_len, int head_dim) {
  const long long rows = (long long)num_q_heads * seq_len;
  const float scale = 1.0f / sqrtf((float)head_dim);
  gqa_warp_per_row<<<(unsigned)((rows + WARPS - 1) / WARPS), WARPS * 32>>>(Q, K, V, output, num_q_heads,
                                                                           num_kv_heads, seq_len, head_dim, scale);
  cudaDeviceSynchronize();
}
