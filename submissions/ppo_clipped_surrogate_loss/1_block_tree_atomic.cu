// Rung 1: one thread per token computes its clipped surrogate term, each block of 256 adds its terms in a
// shared-memory tree, and thread 0 adds the block's share of the negated mean into output with one atomicAdd.
// Rows are contiguous, so the B x S inputs are treated as one flat array of B * S tokens.
#include <cuda_runtime.h>

#define THREADS 256

__device__ float surrogate(float adv, float lp, float lp_old, float clip_eps) {
  const float r = expf(lp - lp_old);
  const float clipped = fminf(fmaxf(r, 1.0f - clip_eps), 1.0f + clip_eps);
  return fminf(r * adv, clipped * adv);  // the min of the two products, not of the two ratios
}

__global__ void ppo_blocks(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                           float clip_eps, int n) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < n ? surrogate(advantages[i], log_pi[i], log_pi_old[i], clip_eps) : 0.0f;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, -partial[0] / n);
}

extern "C" void solve(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                      float clip_eps, int B, int S) {
  const int n = B * S;
  cudaMemset(output, 0, sizeof(float));  // the blocks accumulate into output
  ppo_blocks<<<(n + THREADS - 1) / THREADS, THREADS>>>(advantages, log_pi, log_pi_old, output, clip_eps, n);
  cudaDeviceSynchronize();
}
