// expect: wrong_answer
// expect-message: elements wrong
// submissions/multi_head_cross_attention/1_block_per_query.cu with M and N swapped in the key loops: the kernel walks
// M keys instead of N (in self-attention, where M = N, the two are interchangeable, so the habit survives). Every test
// with M < N sees only the first M keys: the example (M = 2, N = 3) already drops key 2, and fewer_queries_3x70x2x8
// (3 queries, 70 keys) is there to name it. With M > N (one_key_6x1x3x8) it would also read past the end of K and V
// and write past its N shared scores; the verdict is that of the first failing test, the example.
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

  for (int j = warp; j < M; j += WARPS) {  // bug: M is the number of queries, N of keys
    const float* k = K + j * ld + (size_t)h * D;
    float dot = 0.0f;
    for (int c = lane; c < D; c += 32) dot += q[c] * k[c];
    for (int o = 16; o > 0; o /= 2) dot += __shfl_xor_sync(FULL, dot, o);
    if (lane == 0) s[j] = dot * scale;
  }
  __syncthreads();

  float m = -INFINITY;  // not 0: a row whose scores are all negative has a negative maximum
  for (int j = tid; j < M; j += THREADS) m = fmaxf(m, s[j]);
  m = block_reduce(m, red, true);
  float sum = 0.0f;
  for (int j = tid; j < M; j += THREADS) {
    const float e = expf(s[j] - m);
    s[j] = e;
    sum += e;
  }
  sum = block_reduce(sum, red, false);  // >= 1: the maximum contributes exp(0); its barrier also publishes s

  if (tid < D) {
    float acc = 0.0f;
    for (int j = 0; j < M; ++j) acc += s[j] * V[j * ld + (size_t)h * D + tid];
    out[i * ld + (size_t)h * D + tid] = acc / sum;
  }
}

// Q and output are M x H x D, K and V are N x H x D, row-major device pointers; N <= 4096, D <= 256.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int H, int D) {
  const float scale = 1.0f / sqrtf((float)D);  // D is the head dimension, not the model dimension H * D
  attention_row<<<M * H, THREADS, N * sizeof(float)>>>(Q, K, V, output, M, N, H, D, scale);
  cudaDeviceSynchronize();
}
