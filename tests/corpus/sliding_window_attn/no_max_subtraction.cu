// expect: wrong_answer
// expect-message: NaN
// judge-args: --strict
// submissions/sliding_window_attn/1_warp_per_row.cu computing exp(s) instead of exp(s - max). The same softmax in
// exact arithmetic, and every test with inputs in [-1, 1) passes; on large_scores_40x16_w4 (scores from 112 to 368)
// expf overflows and the rows become inf / inf = NaN. Those scores are past what the statement promises, so that case
// is a stress case: without --strict this is accepted with the stress case reported failed; --strict makes it decide.
#include <cuda_runtime.h>

#include <math.h>

#define WARPS 8
#define THREADS (WARPS * 32)
#define MAX_KEYS 65  // 2 * window_size + 1, window_size <= 32
#define FULL 0xffffffffu

__global__ void window_attention(const float* Q, const float* K, const float* V, float* out, int M, int d, int w,
                                 float scale) {
  __shared__ float p[WARPS][MAX_KEYS];  // this warp's scores, then its weights
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int i = blockIdx.x * WARPS + warp;
  if (i >= M) return;  // the whole warp leaves together: nothing below waits for the other warps
  const int lo = max(0, i - w), hi = min(M - 1, i + w), n = hi - lo + 1;
  const float* q = Q + (size_t)i * d;

  float m = -INFINITY;  // not 0: every score of a row may be negative
  for (int t = lane; t < n; t += 32) {
    const float* k = K + (size_t)(lo + t) * d;
    float s = 0.0f;
    for (int c = 0; c < d; ++c) s = fmaf(q[c], k[c], s);
    s *= scale;
    p[warp][t] = s;
    m = fmaxf(m, s);
  }
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(FULL, m, o));

  float sum = 0.0f;
  for (int t = lane; t < n; t += 32) {
    const float e = expf(p[warp][t]);  // bug: no max subtraction
    p[warp][t] = e;
    sum += e;
  }
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(FULL, sum, o);
  __syncwarp();  // every lane's weights are in shared memory before any lane reads them

  const float inv = 1.0f / sum;  // sum >= 1: the maximum contributes exp(0)
  for (int c = lane; c < d; c += 32) {
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) acc = fmaf(p[warp][t], V[(size_t)(lo + t) * d + c], acc);
    out[(size_t)i * d + c] = acc * inv;
  }
}

// Q, K, V, output are M x d row-major device pointers; 1 <= window_size <= 32.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d,
                      int window_size) {
  const float scale = 1.0f / sqrtf((float)d);
  window_attention<<<(M + WARPS - 1) / WARPS, THREADS>>>(Q, K, V, output, M, d, window_size, scale);
  cudaDeviceSynchronize();
}
