// Rung 3: one cooperative kernel; each block keeps 108 KB of its slice in shared memory between passes.
// What must move: every output depends on the whole input, so no output can be written before all of it was read.
// If the input fits on chip it is read once (8N bytes); 100M floats = 400 MB and 2^25 = 134 MB do not fit in
// 132 x 228 KB of shared memory (30 MB) or the 50 MB L2, so the judge's bound counts 12N (two reads, one write).
// This rung beats that count where it can, in one launch (rung 2 had three, and gaps between them):
//  - a persistent grid (2 blocks of 512 per SM, all resident: cudaLaunchCooperativeKernel) gives each block one
//    contiguous slice of the input. Pass 1 reads it with 4 float4 loads in flight per thread and keeps a running
//    (max, sum of exp(x - max)), rescaled once per 16 values; the first 6,912 float4s of the slice (28 MB over the
//    GPU) are also copied into shared memory, so N <= 7.3M floats is read exactly once.
//  - blocks store their (max, sum) pairs, grid.sync(), and every block merges all of them in the same fixed order
//    (no atomics, identical in every block, the same bits on every run).
//  - pass 2 re-reads the part of the slice not in shared memory from its end backwards: the lines read last in
//    pass 1 are the likeliest to be still in L2 (loads whose data will be in shared memory are marked evict-first,
//    __ldcs, and the outputs are streaming stores, __stcs, so they push the rest out as little as possible). Then
//    it writes the part held in shared memory without reading it again. float4 everywhere; the N % 4 tail (or all of
//    it, for misaligned pointers) is handled by scalar loops.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>

namespace cg = cooperative_groups;

#define THREADS 512
#define UNROLL 4                   // float4 loads in flight per thread
#define CACHE_BYTES (108 * 1024)   // dynamic shared memory per block: 2 blocks per SM fit in 228 KB
#define CACHE4 (CACHE_BYTES / 16)  // 6,912 float4s, a multiple of 8 (128 bytes)
#define MAX_BLOCKS 1024

struct MaxSum {
  float m;  // largest value seen
  float s;  // sum of exp(x - m) over the values seen
};

__device__ float2 g_block[MAX_BLOCKS];  // each block's (m, s) after pass 1

__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;                           // both empty: avoid (-inf) - (-inf) = NaN
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};  // an empty side has s = 0 and exp(-inf) = 0
}

// Adds K float4s: one rescale for the batch's maximum, then K * 4 exponentials. Inputs are finite.
template <int K>
__device__ MaxSum add_batch(MaxSum t, const float4 (&v)[K]) {
  float bm = t.m;
#pragma unroll
  for (int k = 0; k < K; ++k) bm = fmaxf(bm, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
  if (bm > t.m) {
    t.s *= expf(t.m - bm);  // t empty: 0 * exp(-inf) = 0
    t.m = bm;
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k)
    s += (expf(v[k].x - t.m) + expf(v[k].y - t.m)) + (expf(v[k].z - t.m) + expf(v[k].w - t.m));
  t.s += s;
  return t;
}

__device__ MaxSum add_one(MaxSum t, float v) {
  if (v > t.m) return {v, t.s * expf(t.m - v) + 1.0f};
  return {t.m, t.s + expf(v - t.m)};
}

// (m, s) over the block, the same in every thread. Holds barriers: every thread must call it.
__device__ MaxSum block_merge(MaxSum t, MaxSum* exchange) {
  for (int offset = 16; offset > 0; offset /= 2)
    t = merge(t, {__shfl_xor_sync(0xffffffffu, t.m, offset), __shfl_xor_sync(0xffffffffu, t.s, offset)});
  __syncthreads();  // exchange may still be read from a previous call
  if (threadIdx.x % 32 == 0) exchange[threadIdx.x / 32] = t;
  __syncthreads();
  t = exchange[0];
  for (int w = 1; w < THREADS / 32; ++w) t = merge(t, exchange[w]);
  return t;
}

__device__ float4 normalize4(float4 v, float m, float inv_sum) {
  return make_float4(expf(v.x - m) * inv_sum, expf(v.y - m) * inv_sum, expf(v.z - m) * inv_sum,
                     expf(v.w - m) * inv_sum);
}

// n4: float4s read as such (0 when a pointer is misaligned); elements from 4 * n4 on are read one by one.
__global__ void __launch_bounds__(THREADS, 2) softmax_one_kernel(const float* x, float* y, int N, int n4) {
  extern __shared__ float4 cache[];  // CACHE4 float4s: the start of this block's slice
  __shared__ MaxSum exchange[THREADS / 32];
  const int t = threadIdx.x;
  // This block's slice of float4s, [beg, beg + len); slices are multiples of 8 float4s (128 bytes) long.
  const int per = ((n4 + gridDim.x - 1) / gridDim.x + 7) / 8 * 8;
  const int beg = min(n4, (int)blockIdx.x * per);
  const int len = min(per, n4 - beg);
  const int cached = min(len, CACHE4);  // [0, cached) of the slice goes to shared memory
  const float4* x4 = reinterpret_cast<const float4*>(x) + beg;
  float4* y4 = reinterpret_cast<float4*>(y) + beg;

  // Pass 1a: the part that shared memory will hold. Each thread writes and later reads only its own entries.
  MaxSum acc = {-INFINITY, 0.0f};
  int j = t;
  for (; j + (UNROLL - 1) * THREADS < cached; j += UNROLL * THREADS) {
    float4 v[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) v[k] = __ldcs(x4 + j + k * THREADS);  // evict-first: never read again
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) cache[j + k * THREADS] = v[k];
    acc = add_batch<UNROLL>(acc, v);
  }
  for (; j < cached; j += THREADS) {
    const float4 v[1] = {__ldcs(x4 + j)};
    cache[j] = v[0];
    acc = add_batch<1>(acc, v);
  }
  // Pass 1b: the rest of the slice, which pass 2 reads again (ordinary loads: let L2 keep what it can).
  for (j = cached + t; j + (UNROLL - 1) * THREADS < len; j += UNROLL * THREADS) {
    float4 v[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) v[k] = x4[j + k * THREADS];
    acc = add_batch<UNROLL>(acc, v);
  }
  for (; j < len; j += THREADS) {
    const float4 v[1] = {x4[j]};
    acc = add_batch<1>(acc, v);
  }
  const int first = blockIdx.x * THREADS + t, stride = gridDim.x * THREADS;
  for (int i = 4 * n4 + first; i < N; i += stride) acc = add_one(acc, x[i]);  // the 0 to 3 left over (or all)

  acc = block_merge(acc, exchange);
  if (t == 0) g_block[blockIdx.x] = make_float2(acc.m, acc.s);
  cg::this_grid().sync();  // every block's pair is stored and visible

  // Every block merges all pairs itself, in the same order: the same (m, s) everywhere, no second grid barrier.
  MaxSum total = {-INFINITY, 0.0f};
  for (int b = t; b < gridDim.x; b += THREADS) {
    const float2 p = __ldcg(&g_block[b]);
    total = merge(total, {p.x, p.y});
  }
  total = block_merge(total, exchange);
  const float m = total.m, inv_sum = 1.0f / total.s;

  // Pass 2a: the part not in shared memory, in chunks of THREADS float4s from the last chunk down (only the last
  // chunk can be partial: idx < len). Consecutive threads still read consecutive float4s.
  const int chunks = (len - cached + THREADS - 1) / THREADS;
  int c = chunks - 1;
  for (; c >= UNROLL - 1; c -= UNROLL) {
    float4 v[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) {
      const int idx = cached + (c - k) * THREADS + t;
      if (idx < len) v[k] = __ldcs(x4 + idx);  // last use
    }
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) {
      const int idx = cached + (c - k) * THREADS + t;
      if (idx < len) __stcs(y4 + idx, normalize4(v[k], m, inv_sum));
    }
  }
  for (; c >= 0; --c) {
    const int idx = cached + c * THREADS + t;
    if (idx < len) __stcs(y4 + idx, normalize4(__ldcs(x4 + idx), m, inv_sum));
  }
  // Pass 2b: the part held in shared memory: written, not read again.
  for (j = t; j < cached; j += THREADS) __stcs(y4 + j, normalize4(cache[j], m, inv_sum));
  for (int i = 4 * n4 + first; i < N; i += stride) y[i] = expf(x[i] - m) * inv_sum;
}

extern "C" void solve(const float* input, float* output, int N) {
  const bool vec4 = (uintptr_t)input % 16 == 0 && (uintptr_t)output % 16 == 0;
  int n4 = vec4 ? N / 4 : 0;
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaFuncSetAttribute(softmax_one_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, CACHE_BYTES);
  cudaFuncSetAttribute(softmax_one_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                       cudaSharedmemCarveoutMaxShared);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, softmax_one_kernel, THREADS, CACHE_BYTES);
  if (per_sm < 1) per_sm = 1;
  // All blocks must be resident at once (grid.sync); no more blocks than there are float4s (or floats) to share.
  const int work = n4 > 0 ? n4 : N;
  int blocks = (work + THREADS - 1) / THREADS;
  if (blocks > sms * per_sm) blocks = sms * per_sm;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  if (blocks < 1) blocks = 1;
  void* args[] = {(void*)&input, (void*)&output, (void*)&N, (void*)&n4};
  cudaLaunchCooperativeKernel((const void*)softmax_one_kernel, dim3(blocks), dim3(THREADS), args, CACHE_BYTES, 0);
  cudaDeviceSynchronize();
}
