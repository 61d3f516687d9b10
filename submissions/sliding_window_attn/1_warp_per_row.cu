// Rung 1: one warp per query row i, whose window is keys lo = max(0, i - w) .. hi = min(M - 1, i + w).
// Lane t scores keys lo + t, lo + t + 32, ... (at most 65 keys) into shared memory; the warp takes the maximum and the
// sum of exp(s - max) with shuffles; then lane c sums weight * V over the window for columns c, c + 32, ...
// K and V are read straight from global memory. Subtracting the maximum keeps expf in range (tests hold scores of
// +-368), and clipping lo and hi to the sequence keeps keys that do not exist out of the softmax.
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
    const float e = expf(p[warp][t] - m);
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
