// Rung 1: one block per query row i. Its keys are the sinks the window does not reach (0 .. n_sink - 1, with
// n_sink = min(num_sinks, lo)) followed by the window lo = max(0, i - window_size + 1) .. i, so a sink inside the
// window is met once. Threads score keys t, t + 128, ... into shared memory; the block takes the max and the sum of
// exp(s - max); then thread c sums weight * V over the keys for column c. K and V are read straight from memory.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 128  // >= d: one output column per thread
#define FULL 0xffffffffu

// Max or sum over the block; every thread gets the result.
__device__ float block_reduce(float x, bool is_max) {
  __shared__ float part[THREADS / 32];
  __shared__ float result;
  for (int o = 16; o > 0; o /= 2) {
    const float y = __shfl_xor_sync(FULL, x, o);
    x = is_max ? fmaxf(x, y) : x + y;
  }
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = part[0];
    for (int w = 1; w < THREADS / 32; ++w) r = is_max ? fmaxf(r, part[w]) : r + part[w];
    result = r;
  }
  __syncthreads();
  const float r = result;
  __syncthreads();  // the next call may overwrite part and result
  return r;
}

__global__ void sink_attention(const float* Q, const float* K, const float* V, float* out, int d, int num_sinks,
                               int window_size, float scale) {
  extern __shared__ float p[];  // this row's scores, then exp(score - max)
  const int i = blockIdx.x;
  const int lo = max(0, i - window_size + 1);
  const int n_sink = min(num_sinks, lo);  // sinks at or after lo are part of the window already
  const int n = n_sink + (i - lo + 1);
  const float* q = Q + (size_t)i * d;

  float m = -INFINITY;
  for (int t = threadIdx.x; t < n; t += THREADS) {
    const int j = t < n_sink ? t : lo + (t - n_sink);
    const float* k = K + (size_t)j * d;
    float s = 0.0f;
    for (int c = 0; c < d; ++c) s = fmaf(q[c], k[c], s);
    s *= scale;
    p[t] = s;
    m = fmaxf(m, s);
  }
  m = block_reduce(m, true);

  float sum = 0.0f;
  for (int t = threadIdx.x; t < n; t += THREADS) {
    const float e = expf(p[t] - m);
    p[t] = e;
    sum += e;
  }
  sum = block_reduce(sum, false);  // its barriers also make every p[t] visible to every thread

  const int c = threadIdx.x;
  if (c < d) {
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
      const int j = t < n_sink ? t : lo + (t - n_sink);
      acc = fmaf(p[t], V[(size_t)j * d + c], acc);
    }
    out[(size_t)i * d + c] = acc / sum;
  }
}

// Q, K, V, output are M x d row-major device pointers; d <= 128, 1 <= num_sinks <= 16, 1 <= window_size <= M.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d, int num_sinks,
                      int window_size) {
  // A row sees at most min(M, window_size + num_sinks) keys: at most 40 KB of scores.
  int max_keys = window_size + num_sinks;
  if (max_keys > M) max_keys = M;
  const float scale = 1.0f / sqrtf((float)d);
  sink_attention<<<M, THREADS, max_keys * sizeof(float)>>>(Q, K, V, output, d, num_sinks, window_size, scale);
  cudaDeviceSynchronize();
}
