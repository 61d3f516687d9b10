// expect: wrong_answer
// expect-message: elements wrong
// submissions/decaying_causal_attention/1_row_per_block.cu ported from the formula's clamp without its causal factor:
// the decay is gamma^max(n - m, 0) over every key 0..seq_len-1, so later keys get weight 1 times their score instead
// of 0. Only the last row is right. The statement's example catches it at once: row 0 adds 0.5 * V[1].
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256  // threads per block: keys per tile, and the largest d_model of the constraints

__global__ void __launch_bounds__(THREADS) retention_row(const float* Q, const float* K, const float* V, float* out,
                                                         int seq_len, int d, float gamma, float scale) {
  __shared__ float q[THREADS];
  __shared__ float w[THREADS];
  const int n = blockIdx.x;
  const int t = threadIdx.x;
  if (t < d) q[t] = Q[(size_t)n * d + t];
  float acc = 0.0f;
  for (int m0 = 0; m0 < seq_len; m0 += THREADS) {
    __syncthreads();  // q is written, and the previous tile's weights have been used
    const int m = m0 + t;
    float s = 0.0f;
    if (m < seq_len) {
      for (int a = 0; a < d; ++a) s = fmaf(q[a], K[(size_t)m * d + a], s);
      s *= scale * powf(gamma, (float)max(n - m, 0));  // underflows to 0 far back when gamma < 1: harmless
    }
    w[t] = s;
    __syncthreads();
    const int count = min(THREADS, seq_len - m0);
    if (t < d)
      for (int j = 0; j < count; ++j) acc = fmaf(w[j], V[(size_t)(m0 + j) * d + t], acc);
  }
  if (t < d) out[(size_t)n * d + t] = acc;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int seq_len, int d_model,
                      float gamma) {
  if (seq_len <= 0 || d_model <= 0) return;
  retention_row<<<seq_len, THREADS>>>(Q, K, V, output, seq_len, d_model, gamma, 1.0f / sqrtf((float)d_model));
  cudaDeviceSynchronize();
}
