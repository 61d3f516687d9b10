// Rung 2: reduce, then scan. A fixed grid of at most 1024 blocks, each owning one contiguous chunk of the input (a
// whole number of 1024-element tiles). Pass 1: each block sums its chunk. Pass 2: one block scans the chunk totals.
// Pass 3: each block scans its chunk tile by tile (4 elements per thread, warp shuffles), starting from its chunk's
// offset and carrying the running total from tile to tile. Since rung 1: 16-byte loads and stores, shuffles instead
// of shared-memory ping-pong, and no recursion: the input is read twice and the output written once (12 bytes per
// element instead of about 20).
#include <cuda_runtime.h>

#include <cstdint>

#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)  // elements per block per step
#define WARPS (THREADS / 32)
#define MAX_CHUNKS 1024          // one block of pass 2 scans them all

__device__ float g_chunk_sum[MAX_CHUNKS];
__device__ float g_chunk_offset[MAX_CHUNKS];  // exclusive prefix of the chunk totals

__device__ float warp_inclusive_scan(float v) {
  const int lane = threadIdx.x % 32;
  for (int d = 1; d < 32; d *= 2) {
    const float up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

// The 4 elements from base on, zeros at and past end: one 16-byte load when all 4 are in range and aligned.
__device__ float4 load4(const float* x, long long base, long long end, bool aligned) {
  if (aligned && base + 3 < end) return *reinterpret_cast<const float4*>(x + base);
  float4 v;
  v.x = base < end ? x[base] : 0.0f;
  v.y = base + 1 < end ? x[base + 1] : 0.0f;
  v.z = base + 2 < end ? x[base + 2] : 0.0f;
  v.w = base + 3 < end ? x[base + 3] : 0.0f;
  return v;
}

__device__ void store4(float* y, long long base, long long end, bool aligned, float4 v) {
  if (aligned && base + 3 < end) {
    *reinterpret_cast<float4*>(y + base) = v;
    return;
  }
  if (base < end) y[base] = v.x;
  if (base + 1 < end) y[base + 1] = v.y;
  if (base + 2 < end) y[base + 2] = v.z;
  if (base + 3 < end) y[base + 3] = v.w;
}

// Pass 1: g_chunk_sum[b] = sum of chunk b.
__global__ void chunk_sums(const float* x, int n, int chunk) {
  __shared__ float warp_total[WARPS];
  const long long start = (long long)blockIdx.x * chunk;
  const long long end = min((long long)n, start + chunk);
  const bool aligned = reinterpret_cast<std::uintptr_t>(x) % 16 == 0;
  float s = 0.0f;
  for (long long base = start + threadIdx.x * ITEMS; base < end; base += TILE) {
    const float4 v = load4(x, base, end, aligned);
    s += (v.x + v.y) + (v.z + v.w);
  }
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  if (threadIdx.x % 32 == 0) warp_total[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < WARPS; ++w) total += warp_total[w];
    g_chunk_sum[blockIdx.x] = total;
  }
}

// Pass 2, one block of MAX_CHUNKS threads: g_chunk_offset = exclusive scan of g_chunk_sum.
__global__ void scan_chunk_sums(int chunks) {
  __shared__ float warp_total[MAX_CHUNKS / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float v = threadIdx.x < chunks ? g_chunk_sum[threadIdx.x] : 0.0f;
  const float inclusive = warp_inclusive_scan(v);
  if (lane == 31) warp_total[warp] = inclusive;
  __syncthreads();
  if (warp == 0) warp_total[lane] = warp_inclusive_scan(warp_total[lane]);  // now inclusive over warps
  __syncthreads();
  float before = __shfl_up_sync(0xffffffffu, inclusive, 1);  // exclusive within the warp
  if (lane == 0) before = 0.0f;
  if (threadIdx.x < chunks) g_chunk_offset[threadIdx.x] = (warp > 0 ? warp_total[warp - 1] : 0.0f) + before;
}

// Pass 3: scan chunk b tile by tile, starting from g_chunk_offset[b].
__global__ void scan_chunks(const float* x, float* y, int n, int chunk) {
  __shared__ float warp_total[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const long long start = (long long)blockIdx.x * chunk;
  const long long end = min((long long)n, start + chunk);
  const bool aligned = reinterpret_cast<std::uintptr_t>(x) % 16 == 0 && reinterpret_cast<std::uintptr_t>(y) % 16 == 0;
  float carry = g_chunk_offset[blockIdx.x];
  for (long long tile = start; tile < end; tile += TILE) {
    const long long base = tile + threadIdx.x * ITEMS;
    const float4 v = load4(x, base, end, aligned);
    const float a = v.x, b = a + v.y, c = b + v.z, d = c + v.w;  // this thread's 4 prefixes
    const float inclusive = warp_inclusive_scan(d);
    if (lane == 31) warp_total[warp] = inclusive;
    __syncthreads();
    float warp_offset = 0.0f, tile_total = 0.0f;
    for (int w = 0; w < WARPS; ++w) {
      if (w < warp) warp_offset += warp_total[w];
      tile_total += warp_total[w];
    }
    float before = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane == 0) before = 0.0f;
    const float offset = carry + (warp_offset + before);
    store4(y, base, end, aligned, make_float4(offset + a, offset + b, offset + c, offset + d));
    carry += tile_total;
    __syncthreads();  // warp_total is rewritten by the next tile
  }
}

// input and output point to GPU memory.
extern "C" void solve(const float* input, float* output, int N) {
  const long long tiles = ((long long)N + TILE - 1) / TILE;
  const long long max_chunks = tiles < MAX_CHUNKS ? tiles : MAX_CHUNKS;
  const int chunk = (int)((tiles + max_chunks - 1) / max_chunks) * TILE;  // whole tiles, so chunks stay aligned
  const int chunks = (int)(((long long)N + chunk - 1) / chunk);
  chunk_sums<<<chunks, THREADS>>>(input, N, chunk);
  scan_chunk_sums<<<1, MAX_CHUNKS>>>(chunks);
  scan_chunks<<<chunks, THREADS>>>(input, output, N, chunk);
  cudaDeviceSynchronize();
}
