#include <cuda_runtime.h>

// For every query head g: output[g] = softmax(Q[g] K[h]^T / sqrt(head_dim)) V[h], the softmax over each row, where
// h = g / (num_q_heads / num_kv_heads) is the K, V head shared by g's group. Q and output are
// [num_q_heads, seq_len, head_dim], K and V are [num_kv_heads, seq_len, head_dim], all row-major.
__global__ void gqa_kernel(const float* Q, const float* K, const float* V, float* output, int num_q_heads,
                           int num_kv_heads, int seq_len, int head_dim) {
  // TODO
}

// Q, K, V and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int num_q_heads,
                      int num_kv_heads, int seq_len, int head_dim) {
  const int threads_per_block = 256;
  const int rows = num_q_heads * seq_len;
  const int blocks = (rows + threads_per_block - 1) / threads_per_block;
  gqa_kernel<<<blocks, threads_per_block>>>(Q, K, V, output, num_q_heads, num_kv_heads, seq_len, head_dim);
  cudaDeviceSynchronize();
}
