// expect: wrong_answer
// submissions/decaying_causal_attention/1_row_per_block.cu with the decay factorised, gamma^(n - m) =
// gamma^n * gamma^(-m): the query is scaled by gamma^n once and each key by gamma^(-m), a common way to turn the
// decayed sum into an undecayed one. Exact in real numbers, but gamma^(-m) overflows float once m passes
// 88.7 / -ln(gamma) (842 at gamma = 0.9, 39 at gamma = 0.1) while gamma^n underflows, giving inf or 0 * inf = NaN:
// sharp_decay_40x8 and factorised_2000x32 fail (as would LeetGPU's benchmark, 4096 rows at gamma = 0.9), while the
// tests with short sequences or mild decay pass.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256  // threads per block: keys per tile, and the largest d_model of the constraints

__global__ void __launch_bounds__(THREADS) retention_row(const float* Q, const float* K, const float* V, float* out,
                                                         int d, float gamma, float scale) {
  __shared__ float q[THREADS];
  __shared__ float w[THREADS];
  const int n = blockIdx.x;
  const int t = threadIdx.x;
  if (t < d) q[t] = Q[(size_t)n * d + t] * powf(gamma, (float)n);
  float acc = 0.0f;
  for (int m0 = 0; m0 <= n; m0 += THREADS) {
    __syncthreads();  // q is written, and the previous tile's weights have been used
    const int m = m0 + t;
    float s = 0.0f;
    if (m <= n) {
      for (int a = 0; a < d; ++a) s = fmaf(q[a], K[(size_t)m * d + a], s);
      s *= scale * powf(gamma, -(float)m);
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
