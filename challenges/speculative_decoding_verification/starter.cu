#include <cuda_runtime.h>

// One block per sequence b is a natural split. For b: walk i = 0 .. T-1 while
// uniform_samples[b, i] < min(1, q(t) / p(t)) (t = draft_tokens[b, i], p and q the rows at [b, i, :]), writing t.
// At the first rejection i, write the smallest k whose normalised cumulative sum of max(0, q - p) reaches
// r = uniform_samples[b, T] (uniform 1/V if that row is all 0; V - 1 if no sum reaches r). If nothing was rejected,
// write into column T the smallest k whose cumulative sum of q at position T - 1 reaches r. All other entries are 0.
// Row-major: element [b, i, v] is at (b * T + i) * V + v; output_tokens is B x (T + 1).
__global__ void verify_kernel(const int* draft_tokens, const float* draft_probs, const float* target_probs,
                              const float* uniform_samples, int* output_tokens, int B, int T, int V) {
  // TODO
}

// draft_tokens, draft_probs, target_probs, uniform_samples, output_tokens are device pointers
extern "C" void solve(const int* draft_tokens, const float* draft_probs, const float* target_probs,
                      const float* uniform_samples, int* output_tokens, int B, int T, int V) {
  verify_kernel<<<B, 256>>>(draft_tokens, draft_probs, target_probs, uniform_samples, output_tokens, B, T, V);
  cudaDeviceSynchronize();
}
