#include <cuda_runtime.h>

// output[i] = softmax over keys j with |i - j| <= window_size (clipped to [0, M)) of Q[i].K[j] / sqrt(d), applied to
// the rows V[j]. Q, K, V and output are M x d, row-major.
__global__ void sliding_window_attention_kernel(const float* Q, const float* K, const float* V, float* output, int M,
                                                int d, int window_size) {
  // TODO
}

// Q, K, V and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d,
                      int window_size) {
  const int threads_per_block = 256;
  const int blocks = (M + threads_per_block - 1) / threads_per_block;
  sliding_window_attention_kernel<<<blocks, threads_per_block>>>(Q, K, V, output, M, d, window_size);
  cudaDeviceSynchronize();
}
