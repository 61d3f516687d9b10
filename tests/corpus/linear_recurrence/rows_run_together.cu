// expect: wrong_answer
// expect-message: elements wrong
// Scans the B x L matrix as one sequence of B * L elements (a correct parallel scan of a flat array: one block, the
// array cut into 256 pieces, piece maps scanned in shared memory), so each row's first element continues from the
// end of the row before instead of starting afresh: h[b, 0] = a[b, 0] * h[b-1, L-1] + x[b, 0]. Single rows pass;
// example_2x4 fails at h[1, 0] (1.125 instead of 1), as does every test with B > 1.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void flat_scan(const float* a, const float* x, float* h, long long n) {
  __shared__ float map_a[2][THREADS], map_b[2][THREADS];
  const int tid = threadIdx.x;
  const long long per = (n + THREADS - 1) / THREADS;
  const long long begin = min(n, tid * per), end = min(n, begin + per);
  float A = 1.0f, Bv = 0.0f;
  for (long long t = begin; t < end; ++t) {
    A *= a[t];
    Bv = a[t] * Bv + x[t];
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
  float v = tid > 0 ? map_b[cur][tid - 1] : 0.0f;
  for (long long t = begin; t < end; ++t) {
    v = a[t] * v + x[t];
    h[t] = v;
  }
}

extern "C" void solve(const float* a, const float* x, float* h, int B, int L) {
  flat_scan<<<1, THREADS>>>(a, x, h, (long long)B * L);  // the mistake: one sequence, no reset at row starts
  cudaDeviceSynchronize();
}
