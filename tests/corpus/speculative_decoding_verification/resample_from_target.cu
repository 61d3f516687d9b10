// expect: wrong_answer
// Resamples a rejected position from the target row q itself instead of the residual max(0, q - p) renormalised:
// the most common misreading of the rejection rule (it double-counts the mass the draft model already offered).
// Only where draft and target share no token of the rejected row (or the draw lands on the same token either way)
// do the answers agree; a host simulation of this bug differs from the reference in every generated test with a
// rejection except max_vocab_2x4x131072, e.g. mixed_64x16x1000 and reject_first_1x1x4.
#include <cuda_runtime.h>

constexpr int kThreads = 512;
constexpr int kWarps = kThreads / 32;

__device__ float block_sum(float x, float* sh) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = x;
  __syncthreads();
  float t = 0.0f;
  for (int w = 0; w < kWarps; ++w) t += sh[w];
  __syncthreads();
  return t;
}

__global__ void verify_block(const int* tok, const float* p, const float* q, const float* u, int* out, int T, int V) {
  __shared__ int s_reject;
  __shared__ float s_warp[kWarps];
  __shared__ int s_found;
  const int b = blockIdx.x;
  const float* ub = u + (size_t)b * (T + 1);
  int* ob = out + (size_t)b * (T + 1);
  if (threadIdx.x < 32) {
    const int i = threadIdx.x;
    bool reject = false;
    if (i < T) {
      const size_t row = ((size_t)b * T + i) * V;
      const int t = tok[(size_t)b * T + i];
      reject = !(ub[i] * p[row + t] < q[row + t]);  // u < q / p without the division (p > 0)
    }
    const unsigned m = __ballot_sync(0xffffffffu, reject);
    if (i == 0) {
      s_reject = m ? __ffs(m) - 1 : T;
      s_found = V;
    }
  }
  __syncthreads();
  const int j = s_reject;
  for (int i = threadIdx.x; i <= T; i += kThreads) ob[i] = i < j ? tok[(size_t)b * T + i] : 0;
  const bool resample = j < T;
  const size_t row = ((size_t)b * T + (resample ? j : T - 1)) * V;
  const float* qr = q + row;
  const float r = ub[T];
  float threshold = r;
  if (resample) {
    float part = 0.0f;
    for (int v = threadIdx.x; v < V; v += kThreads) part += qr[v];
    const float total = block_sum(part, s_warp);
    if (!(total > 0.0f)) {
      if (threadIdx.x == 0) ob[j] = min(max((int)ceilf(r * V) - 1, 0), V - 1);
      return;
    }
    threshold = r * total;
  }
  float running = 0.0f;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int base = 0; base < V; base += kThreads) {
    const int v = base + threadIdx.x;
    float x = 0.0f;
    if (v < V) x = qr[v];
    float incl = x;  // inclusive warp scan
    for (int o = 1; o < 32; o <<= 1) {
      const float y = __shfl_up_sync(0xffffffffu, incl, o);
      if (lane >= o) incl += y;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    float before = running, tile = 0.0f;
    for (int w = 0; w < kWarps; ++w) {
      if (w < warp) before += s_warp[w];
      tile += s_warp[w];
    }
    if (v < V && before + incl >= threshold) atomicMin(&s_found, v);
    __syncthreads();
    if (s_found < V) break;
    running += tile;
  }
  if (threadIdx.x == 0) ob[resample ? j : T] = min(s_found, V - 1);
}

// draft_tokens, draft_probs, target_probs, uniform_samples, output_tokens are device pointers
extern "C" void solve(const int* draft_tokens, const float* draft_probs, const float* target_probs,
                      const float* uniform_samples, int* output_tokens, int B, int T, int V) {
  verify_block<<<B, kThreads>>>(draft_tokens, draft_probs, target_probs, uniform_samples, output_tokens, T, V);
  cudaDeviceSynchronize();
}
