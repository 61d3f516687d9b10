#include <cuda_runtime.h>

// output[0] = -mean over all B * S positions of min(r * A, clip(r, 1 - clip_eps, 1 + clip_eps) * A), where
// r = exp(log_pi - log_pi_old) and A = advantages. Each block can add up the terms of its own elements; those partial
// sums then have to be combined into the one output.
__global__ void ppo_loss_kernel(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                                float clip_eps, int n) {
  // TODO
}

// advantages, log_pi, log_pi_old and output point to GPU memory; the three inputs are B x S, row-major. solve() must
// leave the finished loss in output[0].
extern "C" void solve(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                      float clip_eps, int B, int S) {
  const int n = B * S;
  const int threads_per_block = 256;
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  ppo_loss_kernel<<<blocks, threads_per_block>>>(advantages, log_pi, log_pi_old, output, clip_eps, n);
  cudaDeviceSynchronize();
}
