// expect: wrong_answer
// expect-message: elements wrong
// Returns the mean surrogate objective itself instead of the loss, its negation: PPO maximises the objective, the
// challenge asks for the quantity to minimise. Every value has the wrong sign; example_1x4 gives -0.4875, not 0.4875.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void ppo_blocks(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                           float clip_eps, int n) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float term = 0.0f;
  if (i < n) {
    const float r = expf(log_pi[i] - log_pi_old[i]);
    const float clipped = fminf(fmaxf(r, 1.0f - clip_eps), 1.0f + clip_eps);
    term = fminf(r * advantages[i], clipped * advantages[i]);
  }
  partial[threadIdx.x] = term;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0] / n);  // missing: the minus sign
}

extern "C" void solve(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                      float clip_eps, int B, int S) {
  const int n = B * S;
  cudaMemset(output, 0, sizeof(float));
  ppo_blocks<<<(n + THREADS - 1) / THREADS, THREADS>>>(advantages, log_pi, log_pi_old, output, clip_eps, n);
  cudaDeviceSynchronize();
}
