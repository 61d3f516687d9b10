#include <cuda_runtime.h>

// For every token (row of logits, E experts): the k largest logits, largest first (equal logits: smaller expert
// index first). Write their expert indices to topk_indices[row * k + r] and the softmax of those k logits (subtract
// the largest before exponentiating) to topk_weights[row * k + r]. One thread, or one warp, per row is a good start.
__global__ void gating_kernel(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  // TODO
}

// logits, topk_weights, topk_indices are device pointers
extern "C" void solve(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  const int threads_per_block = 128;
  const int blocks = (M + threads_per_block - 1) / threads_per_block;
  gating_kernel<<<blocks, threads_per_block>>>(logits, topk_weights, topk_indices, M, E, k);
  cudaDeviceSynchronize();
}
