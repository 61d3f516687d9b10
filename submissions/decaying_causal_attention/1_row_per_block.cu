// Rung 1: one block of 256 threads per query row n, walking the keys it may see (0..n) in tiles of 256. Per tile,
// thread t scores key m0 + t against the row (Q's row sits in shared memory) and multiplies in the decay
// gamma^(n - m) / sqrt(d_model); then thread c adds the tile's weighted rows of V into output column c
// (d_model <= 256).
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256  // threads per block: keys per tile, and the largest d_model of the constraints

__global__ void __launch_bounds__(THREADS) retention_row(const float* Q, const float* K, const float* V, float* out,
                                                         int d, float gamma, float scale) {
  __shared__ float q[THREADS];
  __shared__ float w[THREADS];
  const int n = blockIdx.x;
  const int t = threadIdx.x;
  if (t < d) q[t] = Q[(size_t)n * d + t];
  float acc = 0.0f;
  for (int m0 = 0; m0 <= n; m0 += THREADS) {
    __syncthreads();  // q is written, and the previous tile's weights have been used
    const int m = m0 + t;
    float s = 0.0f;
    if (m <= n) {
      for (int a = 0; a < d; ++a) s = fmaf(q[a], K[(size_t)m * d + a], s);
      s *= scale * powf(gamma, (float)(n - m));  // underflows to 0 far back when gamma < 1: harmless
    }
    w[t] = s;
    __syncthreads();
    const int count = min(THREADS, n + 1 - m0);
    if (t < d)
      for (int j = 0; j < count; ++j) acc = fmaf(w[j], V[(size_t)(m0 + j) * d + t], acc);
  }
  if (t < d) out[(size_t)n * d + t] = acc;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int seq_len, int d_model,
                      float gamma) {
  if (seq_len <= 0 || d_model <= 0) return;
  retention_row<<<seq_len, THREADS>>>(Q, K, V, output, d_model, gamma, 1.0f / sqrtf((float)d_model));
  cudaDeviceSynchronize();
}
