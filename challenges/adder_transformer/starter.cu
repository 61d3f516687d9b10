#include <cuda_runtime.h>

// Greedy decoding with a 10-parameter transformer (statement.md has every formula). Each of the batch_size prompts is
// 31 tokens (digits 0..9, int32); run 11 steps, each computing the logits of the LAST position of the current
// sequence, writing them to output[(b * 11 + step) * 10 + d], and appending their argmax (the first maximum on a tie)
// to the sequence. weights[0..9] = w0, w1, q0, q1, v0, a, c, carry, n0, n1. The sequences are independent: a thread
// (or a warp) per sequence is a natural start.
__global__ void adder_kernel(const int* prompts, float* output, const float* weights, int batch_size) {
  // TODO
}

// prompts, output, weights are device pointers
extern "C" void solve(const int* prompts, float* output, const float* weights, int batch_size) {
  const int threads_per_block = 128;
  const int blocks = (batch_size + threads_per_block - 1) / threads_per_block;
  adder_kernel<<<blocks, threads_per_block>>>(prompts, output, weights, batch_size);
  cudaDeviceSynchronize();
}
