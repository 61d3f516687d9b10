// Rung 1: one block of 256 threads per row, the row cut into 256 contiguous pieces, one per thread. Each step is the
// affine map h -> a h + x, and maps compose: (a1, x1) then (a2, x2) is (a1 a2, a2 x1 + x2), so a piece of the row
// is one map. Pass 1: each thread composes the maps of its piece. Pass 2: the block scans the 256 maps (Hillis-Steele,
// double-buffered in shared memory so no thread reads a slot another is overwriting). Pass 3: each thread replays
// its piece from the h the scan gave it. Correct for any L; one block per row leaves most SMs idle when B is small.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void recurrence_rows(const float* a, const float* x, float* h, int L) {
  __shared__ float map_a[2][THREADS], map_b[2][THREADS];
  const int tid = threadIdx.x;
  const long long row = (long long)blockIdx.x * L;
  const int per = (L + THREADS - 1) / THREADS;
  const int begin = min(L, tid * per), end = min(L, begin + per);

  // Pass 1: this piece's map. The row starts from h = 0, so a[b, 0] only ever multiplies 0.
  float A = 1.0f, Bv = 0.0f;
  for (int t = begin; t < end; ++t) {
    const float at = a[row + t];
    A *= at;
    Bv = at * Bv + x[row + t];
  }

  // Pass 2: inclusive scan of the maps over the threads.
  int cur = 0;
  map_a[cur][tid] = A;
  map_b[cur][tid] = Bv;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset *= 2) {
    float A2 = map_a[cur][tid], B2 = map_b[cur][tid];
    if (tid >= offset) {
      const float A1 = map_a[cur][tid - offset], B1 = map_b[cur][tid - offset];
      B2 = A2 * B1 + B2;  // the earlier map first, then this one
      A2 = A1 * A2;
    }
    map_a[1 - cur][tid] = A2;
    map_b[1 - cur][tid] = B2;
    cur = 1 - cur;
    __syncthreads();
  }

  // Pass 3: h just before this piece is the previous thread's inclusive map applied to h = 0.
  float v = tid > 0 ? map_b[cur][tid - 1] : 0.0f;
  for (int t = begin; t < end; ++t) {
    v = a[row + t] * v + x[row + t];
    h[row + t] = v;
  }
}

// a, x, h are device pointers
extern "C" void solve(const float* a, const float* x, float* h, int B, int L) {
  recurrence_rows<<<B, THREADS>>>(a, x, h, L);
  cudaDeviceSynchronize();
}
