// expect: wrong_answer
// expect-message: elements wrong
// Takes the smaller ratio, min(r, clip(r)) * A, instead of the smaller product, min(r A, clip(r) A). The two agree
// for a positive advantage but not for a negative one, where the smaller product belongs to the larger ratio: on
// example_1x4 the last token (A = -3, r = 1.25) contributes -3.6 instead of -3.75 and the loss comes out 0.45.
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
    term = fminf(r, clipped) * advantages[i];  // the min taken over the ratios, not the products
  }
  partial[threadIdx.x] = term;
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
  cudaMemset(output, 0, sizeof(float));
  ppo_blocks<<<(n + THREADS - 1) / THREADS, THREADS>>>(advantages, log_pi, log_pi_old, output, clip_eps, n);
  cudaDeviceSynchronize();
}
