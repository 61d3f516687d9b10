// Rung 1: one thread per sequence does everything in float32, as LeetGPU's reference reads: walk the draft tokens,
// and at the first rejection sum max(0, q - p) over the row, then walk the normalised cumulative sum up to r.
// The row is read twice by a single thread (uncoalesced across sequences), so a V = 32,768 row costs two serial
// passes; correct because every case keeps r at least 2e-4 from each cumulative value, far above float32 drift.
#include <cuda_runtime.h>

__global__ void verify_naive(const int* tok, const float* p, const float* q, const float* u, int* out, int B, int T,
                             int V) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  const float* ub = u + (size_t)b * (T + 1);
  int* ob = out + (size_t)b * (T + 1);
  for (int i = 0; i <= T; ++i) ob[i] = 0;
  const float r = ub[T];
  for (int i = 0; i < T; ++i) {
    const size_t row = ((size_t)b * T + i) * V;
    const int t = tok[(size_t)b * T + i];
    const float alpha = fminf(1.0f, q[row + t] / p[row + t]);
    if (ub[i] < alpha) {
      ob[i] = t;
      continue;
    }
    float total = 0.0f;
    for (int v = 0; v < V; ++v) total += fmaxf(0.0f, q[row + v] - p[row + v]);
    int k = V - 1;
    float c = 0.0f;
    for (int v = 0; v < V; ++v) {
      c += total > 0.0f ? fmaxf(0.0f, q[row + v] - p[row + v]) / total : 1.0f / V;
      if (c >= r) {
        k = v;
        break;
      }
    }
    ob[i] = k;
    return;
  }
  // All accepted: the bonus token from the target row of the last position.
  const size_t row = ((size_t)b * T + (T - 1)) * V;
  int k = V - 1;
  float c = 0.0f;
  for (int v = 0; v < V; ++v) {
    c += q[row + v];
    if (c >= r) {
      k = v;
      break;
    }
  }
  ob[T] = k;
}

// draft_tokens, draft_probs, target_probs, uniform_samples, output_tokens are device pointers
extern "C" void solve(const int* draft_tokens, const float* draft_probs, const float* target_probs,
                      const float* uniform_samples, int* output_tokens, int B, int T, int V) {
  verify_naive<<<(B + 63) / 64, 64>>>(draft_tokens, draft_probs, target_probs, uniform_samples, output_tokens, B, T, V);
  cudaDeviceSynchronize();
}
