// expect: wrong_answer
// expect-message: elements wrong
// submissions/attention_with_sinks/1_block_per_row.cu with the sinks visible to every query, the causal mask kept
// for the window only: a query before the last sink (i < num_sinks - 1) also sees the sinks after it, keys from its
// future. The example fails at row 0 (it sees key 1 too: [0.27, 0.73, 0, 0] instead of [1, 0, 0, 0]), as do
// mean_60x16_s16_w4 (rows 0 to 14 average all 16 sinks), all_sinks_16x32_s16_w1 and full_33x16_s4_w33.
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
  // bug: the sinks are taken as always visible, also after i (the causal mask is applied to the window only).
  const int n_sink = i < num_sinks ? num_sinks : min(num_sinks, lo);
  const int n_win = i < num_sinks ? 0 : i - lo + 1;  // rows inside the sinks: the sinks cover their window
  const int n = n_sink + n_win;
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
  // Sized for the (wrong) key list.
  const int max_keys = window_size + num_sinks;
  const float scale = 1.0f / sqrtf((float)d);
  sink_attention<<<M, THREADS, max_keys * sizeof(float)>>>(Q, K, V, output, d, num_sinks, window_size, scale);
  cudaDeviceSynchronize();
}
