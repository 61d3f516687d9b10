// Rung 2: the maximum and the sum in one pass ("online softmax"), so the input is read twice instead of three times.
// Each thread keeps a running maximum m and a running sum s of exp(x - m); when a larger x arrives, s is rescaled by
// exp(m_old - m_new). Partial (m, s) pairs from threads, warps and blocks merge by the same rule.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define MAX_BLOCKS 1024

struct MaxSum {
  float m;  // largest value seen
  float s;  // sum of exp(x - m) over the values seen
};

__device__ MaxSum g_block[MAX_BLOCKS];  // one partial pair per block of the first pass
__device__ float g_max, g_inv_sum;      // the final pair, as m and 1 / s

__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;  // both empty: avoid (-inf) - (-inf) = NaN
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};  // an empty side has s = 0 and exp(-inf) = 0
}

__device__ MaxSum warp_merge(MaxSum t) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const MaxSum other = {__shfl_down_sync(0xffffffffu, t.m, offset), __shfl_down_sync(0xffffffffu, t.s, offset)};
    t = merge(t, other);
  }
  return t;  // complete in lane 0
}

__global__ void stats_pass(const float* x, int N) {
  __shared__ MaxSum warp_results[THREADS / 32];
  MaxSum t = {-INFINITY, 0.0f};
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += gridDim.x * THREADS) {
    const float v = x[i];
    if (v > t.m) {
      t.s = t.s * expf(t.m - v) + 1.0f;  // rescale what we have to the new maximum, then add exp(v - v) = 1
      t.m = v;
    } else {
      t.s += expf(v - t.m);
    }
  }
  t = warp_merge(t);
  if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = t;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < THREADS / 32; ++w) t = merge(t, warp_results[w]);
    g_block[blockIdx.x] = t;
  }
}

// One warp merges the per-block pairs.
__global__ void combine_pass(int blocks) {
  MaxSum t = {-INFINITY, 0.0f};
  for (int b = threadIdx.x; b < blocks; b += 32) t = merge(t, g_block[b]);
  t = warp_merge(t);
  if (threadIdx.x == 0) {
    g_max = t.m;
    g_inv_sum = 1.0f / t.s;
  }
}

__global__ void normalize_pass(const float* x, float* y, int N) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) y[i] = expf(x[i] - g_max) * g_inv_sum;
}

extern "C" void solve(const float* input, float* output, int N) {
  const int blocks = (N + THREADS - 1) / THREADS;
  const int stat_blocks = blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS;
  stats_pass<<<stat_blocks, THREADS>>>(input, N);
  combine_pass<<<1, 32>>>(stat_blocks);
  normalize_pass<<<blocks, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
