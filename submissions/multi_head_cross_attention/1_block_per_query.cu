// Rung 1: one block per (head, query), the definition step by step, with that query's N scores in shared memory.
//   1. scores: warp w scores keys w, w + 8, w + 16, ...: its lanes split the D products of one key (lane c reads
//      element c of the key's head slice, so a warp reads 32 consecutive floats) and shuffles add them up;
//   2. softmax: the block finds the maximum score, replaces each score s by exp(s - max) and sums them;
//   3. output: thread c (one per element of the head, D <= 256 = block size) sums weight_j * V[j][h][c] over the keys.
// Heads are column slices, not separate matrices: element (i, h, c) of Q is Q[(i * H + h) * D + c]. The blocks of one
// head are numbered consecutively, so the blocks running at the same time read the same K and V slices (L2 hits).
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
  const float scale = 1.0f / sqrtf((float)D);  // D is the head dimension, not the model dimension H * D
  attention_row<<<M * H, THREADS, N * sizeof(float)>>>(Q, K, V, output, M, N, H, D, scale);
  cudaDeviceSynchronize();
}
