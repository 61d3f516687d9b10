// Rung 1: one thread per token: k passes over the row, each picking the largest logit not yet taken (equal logits:
// the smaller index), then the softmax of the k picked logits with the largest one subtracted.
// A thread per row reads its row with a stride of E floats between neighbouring threads (uncoalesced), and each pass
// reads the whole row again; simple, and correct for every E <= 256 and k <= E.
#include <cuda_runtime.h>

#include <math.h>

__global__ void gating(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* x = logits + (long long)row * E;
  float* w = topk_weights + (long long)row * k;
  int* idx = topk_indices + (long long)row * k;
  bool taken[256] = {};  // E <= 256
  for (int r = 0; r < k; ++r) {
    int best = -1;
    for (int e = 0; e < E; ++e)  // strict >: the first (smallest) index wins among equal logits
      if (!taken[e] && (best < 0 || x[e] > x[best])) best = e;
    taken[best] = true;
    idx[r] = best;
    w[r] = x[best];  // the logit for now; the weight below
  }
  const float top = w[0];  // the largest: exp(v - top) <= 1 never overflows
  float sum = 0.0f;
  for (int r = 0; r < k; ++r) sum += expf(w[r] - top);
  for (int r = 0; r < k; ++r) w[r] = expf(w[r] - top) / sum;
}

// logits, topk_weights, topk_indices are device pointers
extern "C" void solve(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  const int threads = 128;
  gating<<<(M + threads - 1) / threads, threads>>>(logits, topk_weights, topk_indices, M, E, k);
  cudaDeviceSynchronize();
}
