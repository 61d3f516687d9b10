// expect: wrong_answer
// The right experts in the right order, but the weights are expf(v) / sum expf(v) without subtracting the largest
// selected logit: mathematically the same, numerically not. expf overflows to inf above 88.7, and
// large_logits_257x255_k7 (logits up to 1000) turns the weights into inf / inf = NaN. Every other case passes.
#include <cuda_runtime.h>

#include <math.h>

__global__ void gating(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* x = logits + (long long)row * E;
  float* w = topk_weights + (long long)row * k;
  int* idx = topk_indices + (long long)row * k;
  bool taken[256] = {};
  float sum = 0.0f;
  for (int r = 0; r < k; ++r) {
    int best = -1;
    for (int e = 0; e < E; ++e)
      if (!taken[e] && (best < 0 || x[e] > x[best])) best = e;
    taken[best] = true;
    idx[r] = best;
    w[r] = expf(x[best]);  // BUG: no shift by the maximum
    sum += w[r];
  }
  for (int r = 0; r < k; ++r) w[r] /= sum;
}

extern "C" void solve(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  gating<<<(M + 127) / 128, 128>>>(logits, topk_weights, topk_indices, M, E, k);
  cudaDeviceSynchronize();
}
