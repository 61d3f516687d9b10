#include <cuda_runtime.h>

// delta[t] = rewards[t] + gamma * values[t+1] - values[t] (values[S] counts as 0), then, from the end of each row,
// advantages[t] = delta[t] + gamma * lam * advantages[t+1] (advantages[S] = 0). Each backward step is an affine map,
// and affine maps compose associatively, so a row can be scanned in parallel like a (reversed) prefix sum.
__global__ void gae_kernel(const float* rewards, const float* values, float* advantages, float gamma, float lam, int B,
                           int S) {
  // TODO
}

// rewards, values, advantages are device pointers
extern "C" void solve(const float* rewards, const float* values, float* advantages, float gamma, float lam, int B,
                      int S) {
  const int threads_per_block = 256;
  gae_kernel<<<B, threads_per_block>>>(rewards, values, advantages, gamma, lam, B, S);
  cudaDeviceSynchronize();
}
