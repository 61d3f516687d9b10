// expect: wrong_answer
// expect-message: elements wrong
// submissions/multi_head_cross_attention/1_block_per_query.cu scaling the scores by 1 / sqrt(H * D), the model
// dimension, instead of 1 / sqrt(D), the dimension of one head. The scores come out sqrt(H) times too small and the
// weights too flat: in the example (H = 2) the first query's head-0 weights are 0.58, 0.28, 0.14 instead of 0.67,
// 0.24, 0.09; bart_128x512x16x64 (scale 1/32 instead of 1/8) fails as well. Only H = 1 hides it.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256  // also the largest D: one thread per output element of the head
#define WARPS (THREADS / 32)
#define FULL 0xffffffffu

// Sum or maximum over the block; every thread gets the result. red holds one value per warp.
__device__ float block_reduce(float v, float* red, bool is_max) {
  for (int o = 16; o > 0; o /= 2) {
    const float w = __shfl_xor_sync(FULL, v, o);
    v = is_max ? fmaxf(v, w) : v + w;
  }
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
  __syncthreads();
  float r = red[0];
  for (int w = 1; w < WARPS; ++w) r = is_max ? fmaxf(r, red[w]) : r + red[w];
  __syncthreads();  // everyone has read red before the next call overwrites it
  return r;
}

__global__ void attention_row(const float* Q, const float* K, const float* V, float* out, int M, int N, int H, int D,
                              float scale) {
  extern __shared__ float s[];  // the N scores of this query, then their exponentials
  __shared__ float q[THREADS];  // this query's head slice
  __shared__ float red[WARPS];
  const int h = blockIdx.x / M, i = blockIdx.x % M;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const size_t ld = (size_t)H * D;  // floats per row of Q, K, V and output
  if (tid < D) q[tid] = Q[i * ld + (size_t)h * D + tid];
  __syncthreads();

  for (int j = warp; j < N; j += WARPS) {
    const float* k = K + j * ld + (size_t)h * D;
    float dot = 0.0f;
    for (int c = lane; c < D; c += 32) dot += q[c] * k[c];
    for (int o = 16; o > 0; o /= 2) dot += __shfl_xor_sync(FULL, dot, o);
    if (lane == 0) s[j] = dot * scale;
  }
  __syncthreads();

  float m = -INFINITY;  // not 0: a row whose scores are all negative has a negative maximum
  for (int j = tid; j < N; j += THREADS) m = fmaxf(m, s[j]);
  m = block_reduce(m, red, true);
  float sum = 0.0f;
  for (int j = tid; j < N; j += THREADS) {
    const float e = expf(s[j] - m);
    s[j] = e;
    sum += e;
  }
  sum = block_reduce(sum, red, false);  // >= 1: the maximum contributes exp(0); its barrier also publishes s

  if (tid < D) {
    float acc = 0.0f;
    for (int j = 0; j < N; ++j) acc += s[j] * V[j * ld + (size_t)h * D + tid];
    out[i * ld + (size_t)h * D + tid] = acc / sum;
  }
}

// Q and output are M x H x D, K and V are N x H x D, row-major device pointers; N <= 4096, D <= 256.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int H, int D) {
  const float scale = 1.0f / sqrtf((float)(H * D));  // bug: the model dimension; the head dimension D is right
  attention_row<<<M * H, THREADS, N * sizeof(float)>>>(Q, K, V, output, M, N, H, D, scale);
  cudaDeviceSynchronize();
}
