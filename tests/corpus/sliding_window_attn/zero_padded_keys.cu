// expect: wrong_answer
// expect-message: elements wrong
// submissions/sliding_window_attn/1_warp_per_row.cu with every window 2w + 1 keys long, the positions before 0 and
// past M - 1 taken as zero rows of K and V (as a padded tensor would hold them) instead of being left out. Such a
// key scores 0, so it still takes a share exp(0 - max) of the softmax and pulls the output of the first and last w
// rows towards 0. Interior rows are right; the example fails at query 0 (keys -1, 0, 1 instead of 0, 1), as do
// zero_q_100x32_w8 (edge rows averaged over 2w + 1 instead of their 9 to 16 keys) and single_1x1_w1.
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
  const int lo = i - w, n = 2 * w + 1;  // bug: every window has 2w + 1 keys, missing ones as zero rows
  const float* q = Q + (size_t)i * d;

  float m = -INFINITY;  // not 0: every score of a row may be negative
  for (int t = lane; t < n; t += 32) {
    const int j = lo + t;
    float s = 0.0f;  // a key before 0 or past M - 1 scores 0 and so still gets a weight
    if (j >= 0 && j < M)
      for (int c = 0; c < d; ++c) s = fmaf(q[c], K[(size_t)j * d + c], s);
    s *= scale;
    p[warp][t] = s;
    m = fmaxf(m, s);
  }
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(FULL, m, o));

  float sum = 0.0f;
  for (int t = lane; t < n; t += 32) {
    const float e = expf(p[warp][t] - m);
    p[warp][t] = e;
    sum += e;
  }
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(FULL, sum, o);
  __syncwarp();  // every lane's weights are in shared memory before any lane reads them

  const float inv = 1.0f / sum;  // sum >= 1: the maximum contributes exp(0)
  for (int c = lane; c < d; c += 32) {
    float acc = 0.0f;
    for (int t = 0; t < n; ++t)
      if (lo + t >= 0 && lo + t < M) acc = fmaf(p[warp][t], V[(size_t)(lo + t) * d + c], acc);
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
