// expect: wrong_answer
// expect-message: elements wrong
// Every thread adds its own term, divided by -n, straight into output with atomicAdd: one running float sum over
// B * S terms. Once the running total is millions of times larger than a term, each addition is rounded to the
// total's coarse spacing and the errors pile up: the small tests pass, but on max_256x16384 (4.2 million terms) the
// loss comes out about 5 times the tolerance off (4.9 to 5.3 in 8 simulated inputs). Sum in a tree or per block first.
#include <cuda_runtime.h>

__global__ void ppo_atomic(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                           float clip_eps, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float r = expf(log_pi[i] - log_pi_old[i]);
    const float clipped = fminf(fmaxf(r, 1.0f - clip_eps), 1.0f + clip_eps);
    atomicAdd(output, -fminf(r * advantages[i], clipped * advantages[i]) / n);
  }
}

extern "C" void solve(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                      float clip_eps, int B, int S) {
  const int n = B * S;
  cudaMemset(output, 0, sizeof(float));
  ppo_atomic<<<(n + 255) / 256, 256>>>(advantages, log_pi, log_pi_old, output, clip_eps, n);
  cudaDeviceSynchronize();
}
