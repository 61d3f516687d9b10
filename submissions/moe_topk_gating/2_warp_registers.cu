// Rung 2: a warp per token, the row held in registers (E <= 256: up to 8 logits per lane, read once, coalesced), and
// k rounds of a warp-wide argmax by shuffles; the winner's lane marks it taken in its registers.
// Each round is 5 shuffle steps on (logit, index) pairs with the tie rule built into the comparison (equal logits:
// smaller index), so nothing is re-read from memory. The picked logits stay in lane r % 32's registers for round r,
// so the softmax needs no memory either; lanes write their weights and indices directly.
#include <cuda_runtime.h>

#include <math.h>

constexpr int kWarps = 4;     // rows per block of 128 threads
constexpr int kPerLane = 8;   // 8 * 32 = 256 >= E
constexpr int kKeep = 8;      // picked logits per lane: 8 * 32 = 256 >= k

__device__ __forceinline__ bool better(float va, int ia, float vb, int ib) {
  return va > vb || (va == vb && ia < ib);
}

__global__ void __launch_bounds__(kWarps * 32) gating(const float* __restrict__ logits, float* __restrict__ topk_weights,
                                                      int* __restrict__ topk_indices, int M, int E, int k) {
  const int lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * kWarps + (threadIdx.x >> 5);
  if (row >= M) return;
  const float* x = logits + row * E;
  float v[kPerLane];
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) {
    const int e = j * 32 + lane;
    v[j] = e < E ? x[e] : -INFINITY;  // slots past E are never picked: k <= E real experts come first
  }
  unsigned taken = 0;  // bit j: v[j] already picked (or past E)
#pragma unroll
  for (int j = 0; j < kPerLane; ++j)
    if (j * 32 + lane >= E) taken |= 1u << j;

  float keep[kKeep];
  float top = 0.0f;
  for (int r = 0; r < k; ++r) {
    float bv = -INFINITY;
    int bi = 0x7fffffff;  // no candidate
#pragma unroll
    for (int j = 0; j < kPerLane; ++j) {
      const int e = j * 32 + lane;
      if (!(taken >> j & 1u) && better(v[j], e, bv, bi)) {
        bv = v[j];
        bi = e;
      }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const float ov = __shfl_xor_sync(0xffffffffu, bv, o);
      const int oi = __shfl_xor_sync(0xffffffffu, bi, o);
      if (better(ov, oi, bv, bi)) {
        bv = ov;
        bi = oi;
      }
    }
    if ((bi & 31) == lane) taken |= 1u << (bi >> 5);  // the owner of the winner marks it
    if (r == 0) top = bv;
#pragma unroll
    for (int j = 0; j < kKeep; ++j)
      if (j * 32 + lane == r) keep[j] = bv;
    if ((r & 31) == lane) topk_indices[row * k + r] = bi;
  }
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < kKeep; ++j)
    if (j * 32 + lane < k) sum += __expf(keep[j] - top);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  const float inv = 1.0f / sum;
#pragma unroll
  for (int j = 0; j < kKeep; ++j)
    if (j * 32 + lane < k) topk_weights[row * k + j * 32 + lane] = __expf(keep[j] - top) * inv;
}

// logits, topk_weights, topk_indices are device pointers
extern "C" void solve(const float* logits, float* topk_weights, int* topk_indices, int M, int E, int k) {
  gating<<<(M + kWarps - 1) / kWarps, kWarps * 32>>>(logits, topk_weights, topk_indices, M, E, k);
}
