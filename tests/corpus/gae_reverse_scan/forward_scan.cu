// expect: wrong_answer
// expect-message: elements wrong
// Accumulates in the wrong direction: advantages[t] = delta[t] + gamma * lam * advantages[t-1], from the row's start,
// the order of an ordinary prefix scan (one block per row, pieces scanned in shared memory). The deltas are right,
// so the last step of a row can happen to match, but example_1x4 already gives [1.4, 2.98, 4.64, 4.09] instead of
// [3.308, 4.24, 4.2, 2]. GAE discounts the FUTURE: the recurrence must run from the end of the row.
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
  for (int t = begin; t < end; ++t) {  // the mistake: left to right
    A *= c;
    Bv = c * Bv + td_error(rewards, values, row, t, S, gamma);
  }
  int cur = 0;
  map_a[cur][tid] = A;
  map_b[cur][tid] = Bv;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset *= 2) {
    float A2 = map_a[cur][tid], B2 = map_b[cur][tid];
    if (tid >= offset) {
      B2 = A2 * map_b[cur][tid - offset] + B2;
      A2 = map_a[cur][tid - offset] * A2;
    }
    map_a[1 - cur][tid] = A2;
    map_b[1 - cur][tid] = B2;
    cur = 1 - cur;
    __syncthreads();
  }
  float adv = tid > 0 ? map_b[cur][tid - 1] : 0.0f;
  for (int t = begin; t < end; ++t) {
    adv = c * adv + td_error(rewards, values, row, t, S, gamma);
    advantages[row + t] = adv;
  }
}

extern "C" void solve(const float* rewards, const float* values, float* advantages, float gamma, float lam, int B,
                      int S) {
  gae_rows<<<B, THREADS>>>(rewards, values, advantages, gamma, gamma * lam, S);
  cudaDeviceSynchronize();
}
