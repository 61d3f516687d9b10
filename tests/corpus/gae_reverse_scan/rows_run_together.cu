// expect: wrong_answer
// expect-message: elements wrong
// Scans the B x S matrix backwards as one sequence of B * S elements (a correct reverse scan of a flat array: one
// block, the array cut into 256 pieces), so each row's last step bootstraps from the NEXT row's first value instead
// of 0, and its advantage carries the next row's in. Single rows pass (the example, 1x1, gamma0_1x4, lam0_1x4);
// 3x33 and every test with B > 1 fail in every row but the last.
#include <cuda_runtime.h>

#define THREADS 256

// The mistake: the row boundary is ignored, so values[n] is the only "end".
__device__ float td_error(const float* r, const float* v, long long t, long long n, float gamma) {
  const float next = t + 1 < n ? v[t + 1] : 0.0f;
  return r[t] + gamma * next - v[t];
}

__global__ void flat_reverse_scan(const float* rewards, const float* values, float* advantages, float gamma, float c,
                                  long long n) {
  __shared__ float map_a[2][THREADS], map_b[2][THREADS];
  const int tid = threadIdx.x;
  const long long per = (n + THREADS - 1) / THREADS;
  const long long begin = min(n, tid * per), end = min(n, begin + per);
  float A = 1.0f, Bv = 0.0f;
  for (long long t = end - 1; t >= begin; --t) {
    A *= c;
    Bv = c * Bv + td_error(rewards, values, t, n, gamma);
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
  for (long long t = end - 1; t >= begin; --t) {
    adv = c * adv + td_error(rewards, values, t, n, gamma);
    advantages[t] = adv;
  }
}

extern "C" void solve(const float* rewards, const float* values, float* advantages, float gamma, float lam, int B,
                      int S) {
  flat_reverse_scan<<<1, THREADS>>>(rewards, values, advantages, gamma, gamma * lam, (long long)B * S);
  cudaDeviceSynchronize();
}
