#include <cuda_runtime.h>

// Backward pass of O = softmax(Q K^T / sqrt(d)) V, the softmax over each row of the M x N scores. Given dO, write
// dQ (M x d), dK (N x d) and dV (N x d). Q and dO are M x d, K and V are N x d, all row-major. With
// P = softmax(Q K^T / sqrt(d)) and dP = dO V^T:
//   dV = P^T dO,   dS = P * (dP - rowsum(P * dP)) / sqrt(d)  (element-wise),   dQ = dS K,   dK = dS^T Q.
// You will likely need several kernels (or P and the row sums recomputed inside one).
__global__ void attention_backward_kernel(const float* Q, const float* K, const float* V, const float* dO, float* dQ,
                                          float* dK, float* dV, int M, int N, int d) {
  // TODO
}

// Q, K, V, dO, dQ, dK and dV point to GPU memory. solve() must leave the finished gradients in dQ, dK and dV.
extern "C" void solve(const float* Q, const float* K, const float* V, const float* dO, float* dQ, float* dK, float* dV,
                      int M, int N, int d) {
  const int threads_per_block = 256;
  const int blocks = (M + threads_per_block - 1) / threads_per_block;
  attention_backward_kernel<<<blocks, threads_per_block>>>(Q, K, V, dO, dQ, dK, dV, M, N, d);
  cudaDeviceSynchronize();
}
