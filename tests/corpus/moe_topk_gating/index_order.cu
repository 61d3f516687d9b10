// expect: wrong_answer
// expect-message: in another order
// Selects the right k experts with a threshold (the k-th largest logit, found by counting, ties at the threshold
// resolved by smaller index) but writes them in expert-index order, as a filter pass does, instead of by descending
// logit. The weights are permuted the same way, so they are also wrong position by position. The statement's example
// already fails (row 0 gives [2, 3] instead of [3, 2]); the checker says the experts are right but out of order.
#include <cuda_runtime.h>

#include <math.h>

__global__ void gating(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* x = logits + (long long)row * E;
  float* w = topk_weights + (long long)row * k;
  int* idx = topk_indices + (long long)row * k;
  float top = -INFINITY;
  for (int e = 0; e < E; ++e) top = fmaxf(top, x[e]);
  int out = 0;
  float sum = 0.0f;
  for (int e = 0; e < E && out < k; ++e) {
    int rank = 0;  // experts that come before e: larger logit, or equal logit and smaller index
    for (int f = 0; f < E; ++f) rank += x[f] > x[e] || (x[f] == x[e] && f < e);
    if (rank < k) {  // BUG: written at `out` (index order) instead of at `rank`
      idx[out] = e;
      w[out] = expf(x[e] - top);
      sum += w[out];
      ++out;
    }
  }
  for (int r = 0; r < k; ++r) w[r] /= sum;
}

extern "C" void solve(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  gating<<<(M + 127) / 128, 128>>>(logits, topk_weights, topk_indices, M, E, k);
  cudaDeviceSynchronize();
}
