#include <cuda_runtime.h>

// For every head h: output_h = softmax(Q_h K_h^T / sqrt(D)) V_h, the softmax over each query's N scores. Q and output
// are M x H x D, K and V are N x H x D, all row-major: element (i, h, c) of Q is Q[(i * H + h) * D + c], so head h is
// the D columns starting at h * D of every row. D is the dimension of one head. You will likely need more than one
// kernel (or a running maximum and sum).
__global__ void cross_attention_kernel(const float* Q, const float* K, const float* V, float* output, int M, int N,
                                       int H, int D) {
  // TODO
}

// Q, K, V and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int H, int D) {
  const int threads_per_block = 256;
  const int blocks = (M * H + threads_per_block - 1) / threads_per_block;
  cross_attention_kernel<<<blocks, threads_per_block>>>(Q, K, V, output, M, N, H, D);
  cudaDeviceSynchronize();
}
