#include <cuda_runtime.h>

// output[0] = -(1 / (B*G*S)) * sum over every token of min(r * A, clip(r, 1 - clip_eps, 1 + clip_eps) * A)
//             - beta * (exp(d) - d - 1), with r = exp(log_pi - log_pi_old), d = log_ref - log_pi and A the reward of
// the token's response normalised over its group of G responses. The advantages depend on a whole group and the
// loss on every token, so you will likely want one pass for the advantages and a reduction for the mean.
__global__ void grpo_loss_kernel(const float* rewards, const float* log_pi, const float* log_pi_old,
                                 const float* log_ref, float* output, float clip_eps, float beta, int B, int G,
                                 int S) {
  // TODO
}

// rewards, log_pi, log_pi_old, log_ref and output point to GPU memory. solve() must leave the loss in output[0].
extern "C" void solve(const float* rewards, const float* log_pi, const float* log_pi_old, const float* log_ref,
                      float* output, float clip_eps, float beta, int B, int G, int S) {
  const int threads_per_block = 256;
  const int blocks = (B * G * S + threads_per_block - 1) / threads_per_block;
  grpo_loss_kernel<<<blocks, threads_per_block>>>(rewards, log_pi, log_pi_old, log_ref, output, clip_eps, beta, B, G,
                                                  S);
  cudaDeviceSynchronize();
}
