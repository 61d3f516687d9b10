#include <cuda_runtime.h>

// For each head hd in [0, h), with d_k = d_model / h and the head's columns [hd * d_k, (hd + 1) * d_k) of Q, K, V:
// output[:, head columns] = softmax(Q_hd K_hd^T / sqrt(d_k)) V_hd, the softmax over each row of the N x N scores.
// All matrices are N x d_model, row-major. You will likely need a running maximum and sum (or more than one kernel).
__global__ void attention_kernel(const float* Q, const float* K, const float* V, float* output, int N, int d_model,
                                 int h) {
  // TODO
}

// Q, K, V and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int N, int d_model, int h) {
  const int threads_per_block = 256;
  const int blocks = (N * h + threads_per_block - 1) / threads_per_block;
  attention_kernel<<<blocks, threads_per_block>>>(Q, K, V, output, N, d_model, h);
  cudaDeviceSynchronize();
}
