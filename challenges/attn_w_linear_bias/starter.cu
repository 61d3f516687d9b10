#include <cuda_runtime.h>

// output = softmax(Q K^T / sqrt(d) + alpha * (i - j)) V, the softmax over each row of the M x N logits, where i is the
// query's row and j the key's. Q is M x d, K and V are N x d, output is M x d, all row-major. You will likely need
// more than one kernel (or a running maximum and sum).
__global__ void alibi_attention_kernel(const float* Q, const float* K, const float* V, float* output, int M, int N,
                                       int d, float alpha) {
  // TODO
}

// Q, K, V and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d,
                      float alpha) {
  const int threads_per_block = 256;
  const int blocks = (M + threads_per_block - 1) / threads_per_block;
  alibi_attention_kernel<<<blocks, threads_per_block>>>(Q, K, V, output, M, N, d, alpha);
  cudaDeviceSynchronize();
}
