// Rung 2: one warp per sample, and one pass over its row. In rung 1 the 32 threads of a warp read 32 different rows
// (C floats apart: uncoalesced) three times each. Here the lanes read consecutive logits of one row (coalesced, and
// float4 when every row is 16-byte aligned) and keep an online log-sum-exp: a running maximum m and a running sum s
// of exp(x - m), rescaled by exp(m_old - m_new) when a larger logit arrives. Lanes merge their (m, s) pairs by the
// same rule with shuffles. Each block adds up its warps' losses and writes one partial sum; a second tiny kernel adds
// the partials in order and divides by N, so no atomics and no clearing of loss are needed.
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>

#define WARPS 8
#define MAX_BLOCKS 1024

__device__ float g_partials[MAX_BLOCKS];

struct MaxSum {
  float m, s;
};

__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;  // both empty: avoid (-inf) - (-inf) = NaN
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ void push(MaxSum& t, float v) {
  if (v > t.m) {
    t.s = t.s * expf(t.m - v) + 1.0f;  // rescale to the new maximum, then add exp(v - v) = 1
    t.m = v;
  } else {
    t.s += expf(v - t.m);
  }
}

__global__ void row_losses(const float* __restrict__ logits, const int* __restrict__ labels, int N, int C,
                           bool vec4) {
  __shared__ float warp_loss[WARPS];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float mine = 0.0f;
  for (int i = blockIdx.x * WARPS + warp; i < N; i += gridDim.x * WARPS) {
    const float* row = logits + (size_t)i * C;
    MaxSum t = {-INFINITY, 0.0f};
    if (vec4) {
      for (int q = lane; q < C / 4; q += 32) {
        const float4 v = reinterpret_cast<const float4*>(row)[q];
        push(t, v.x), push(t, v.y), push(t, v.z), push(t, v.w);
      }
    } else {
      for (int j = lane; j < C; j += 32) push(t, row[j]);
    }
    for (int offset = 16; offset > 0; offset /= 2)
      t = merge(t, {__shfl_down_sync(0xffffffffu, t.m, offset), __shfl_down_sync(0xffffffffu, t.s, offset)});
    if (lane == 0) mine += t.m + logf(t.s) - row[labels[i]];
  }
  if (lane == 0) warp_loss[warp] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    float block = 0.0f;
    for (int w = 0; w < WARPS; ++w) block += warp_loss[w];
    g_partials[blockIdx.x] = block;
  }
}

__global__ void mean(float* loss, int partials, int N) {
  float acc = 0.0f;
  for (int b = threadIdx.x; b < partials; b += 32) acc += g_partials[b];
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if (threadIdx.x == 0) loss[0] = acc / N;
}

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
  const bool vec4 = C % 4 == 0 && (uintptr_t)logits % 16 == 0;
  int blocks = (N + WARPS - 1) / WARPS;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  row_losses<<<blocks, WARPS * 32>>>(logits, true_labels, N, C, vec4);
  mean<<<1, 32>>>(loss, blocks, N);
  cudaDeviceSynchronize();
}
