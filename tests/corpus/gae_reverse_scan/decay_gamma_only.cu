// expect: wrong_answer
// expect-message: elements wrong
// Decays the carried advantage by gamma alone (the discounted return's recurrence) instead of gamma * lam: a correct
// reverse scan of the wrong recurrence. Where lam = 1 it is right (undiscounted_4x4097, exact_3x65536,
// near_one_3x65536) and where gamma = 0 too, but lam0_1x4 fails (lam = 0 must leave advantage = delta, here
// [7.646, 6.94, 5.1, 2] instead of [1.4, 2.35, 3.3, 2]), as do the example and every test with lam = 0.95.
#include <cuda_runtime.h>

#define THREADS 256

__device__ float td_error(const float* r, const float* v, long long row, int t, int S, float gamma) {
  const float next = t + 1 < S ? v[row + t + 1] : 0.0f;
  return r[row + t] + gamma * next - v[row + t];
}

__global__ void gae_rows(const float* rewards, const float* values, float* advantages, float gamma, float c, int S) {
  __shared__ float map_a[2][THREADS], map_b[2][THREADS];
  const int tid = threadIdx.x;
  const long long row = (long long)blockIdx.x * S;
  const int per = (S + THREADS - 1) / THREADS;
  const int begin = min(S, tid * per), end = min(S, begin + per);
  float A = 1.0f, Bv = 0.0f;
  for (int t = end - 1; t >= begin; --t) {
    A *= c;
    Bv = c * Bv + td_error(rewards, values, row, t, S, gamma);
  }
  int cur = 0;
  map_a[cur][tid] = A;
  map_b[cur][tid] = Bv;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset *= 2) {
    float A2 = map_a[cur][tid], B2 = map_b[cur][tid];
    if (tid + offset < THREADS) {
      B2 = A2 * map_b[cur][tid + offset] + B2;
      A2 = map_a[cur][tid + offset] * A2;
    }
    map_a[1 - cur][tid] = A2;
    map_b[1 - cur][tid] = B2;
    cur = 1 - cur;
    __syncthreads();
  }
  float adv = tid + 1 < THREADS ? map_b[cur][tid + 1] : 0.0f;
  for (int t = end - 1; t >= begin; --t) {
    adv = c * adv + td_error(rewards, values, row, t, S, gamma);
    advantages[row + t] = adv;
  }
}

extern "C" void solve(const float* rewards, const float* values, float* advantages, float gamma, float lam, int B,
                      int S) {
  gae_rows<<<B, THREADS>>>(rewards, values, advantages, gamma, gamma, S);  // the mistake: gamma, not gamma * lam
  cudaDeviceSynchronize();
}
