#include <cuda_runtime.h>

// output = softmax(mask(Q K^T / sqrt(d))) V with a causal mask: query row i attends to keys 0..i only (the scores of
// keys j > i count as -infinity). Q, K, V and output are M x d, row-major. You will likely need more than one kernel
// (or a running maximum and sum per row).
__global__ void causal_attention_kernel(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  // TODO
}

// Q, K, V and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  const int threads_per_block = 256;
  const int blocks = (M + threads_per_block - 1) / threads_per_block;
  causal_attention_kernel<<<blocks, threads_per_block>>>(Q, K, V, output, M, d);
  cudaDeviceSynchronize();
}
