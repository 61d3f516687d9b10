// expect: wrong_answer
// expect-message: among equal logits the smaller index comes first
// Picks the maximum with >= instead of >, so among equal logits the LAST index wins. torch.topk leaves the order of
// ties unspecified; this judge fixes it (equal logits: smaller index first, as a stable sort gives) so that the
// indices can be checked exactly. Passes every case without ties; ties_3x8_k3 (row 0: four 5s for three places)
// catches it, and the checker names the rule.
#include <cuda_runtime.h>

#include <math.h>

__global__ void gating(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* x = logits + (long long)row * E;
  float* w = topk_weights + (long long)row * k;
  int* idx = topk_indices + (long long)row * k;
  bool taken[256] = {};
  for (int r = 0; r < k; ++r) {
    int best = -1;
    for (int e = 0; e < E; ++e)
      if (!taken[e] && (best < 0 || x[e] >= x[best])) best = e;  // BUG: >= lets a later equal logit win
    taken[best] = true;
    idx[r] = best;
    w[r] = x[best];
  }
  const float top = w[0];
  float sum = 0.0f;
  for (int r = 0; r < k; ++r) sum += expf(w[r] - top);
  for (int r = 0; r < k; ++r) w[r] = expf(w[r] - top) / sum;
}

extern "C" void solve(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  gating<<<(M + 127) / 128, 128>>>(logits, topk_weights, topk_indices, M, E, k);
  cudaDeviceSynchronize();
}
