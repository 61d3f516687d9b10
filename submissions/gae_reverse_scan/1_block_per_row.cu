// Rung 1: one block of 256 threads per row, the row cut into 256 contiguous pieces, one per thread. Walking back from
// the row's end, each step is the affine map A -> c A + delta[t] (c = gamma * lam), and maps compose: a piece of the
// row is one map. Pass 1: each thread composes the maps of its piece, right to left. Pass 2: the block scans the 256
// maps from the right (Hillis-Steele, double-buffered in shared memory). Pass 3: each thread replays its piece from
// the advantage just right of it. Correct for any S; one block per row leaves most SMs idle when B is small.
#include <cuda_runtime.h>

#define THREADS 256

// The one-step TD error; the value after the row's last step is 0.
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

  // Pass 1: this piece's map, from its last element back to its first.
  float A = 1.0f, Bv = 0.0f;
  for (int t = end - 1; t >= begin; --t) {
    A *= c;
    Bv = c * Bv + td_error(rewards, values, row, t, S, gamma);
  }

  // Pass 2: scan of the maps from the right: thread tid gets the map of pieces tid .. 255, rightmost applied first.
  int cur = 0;
  map_a[cur][tid] = A;
  map_b[cur][tid] = Bv;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset *= 2) {
    float A2 = map_a[cur][tid], B2 = map_b[cur][tid];
    if (tid + offset < THREADS) {
      const float A1 = map_a[cur][tid + offset], B1 = map_b[cur][tid + offset];
      B2 = A2 * B1 + B2;  // the pieces to the right first, then this one
      A2 = A1 * A2;
    }
    map_a[1 - cur][tid] = A2;
    map_b[1 - cur][tid] = B2;
    cur = 1 - cur;
    __syncthreads();
  }

  // Pass 3: the advantage just right of this piece is the next thread's map applied to A[S] = 0.
  float adv = tid + 1 < THREADS ? map_b[cur][tid + 1] : 0.0f;
  for (int t = end - 1; t >= begin; --t) {
    adv = c * adv + td_error(rewards, values, row, t, S, gamma);
    advantages[row + t] = adv;
  }
}

// rewards, values, advantages are device pointers
extern "C" void solve(const float* rewards, const float* values, float* advantages, float gamma, float lam, int B,
                      int S) {
  gae_rows<<<B, THREADS>>>(rewards, values, advantages, gamma, gamma * lam, S);
  cudaDeviceSynchronize();
}
