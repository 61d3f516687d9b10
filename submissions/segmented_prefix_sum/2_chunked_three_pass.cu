// Rung 2: a fixed grid of at most 1024 blocks, each owning one contiguous chunk of the array (whole tiles of 1024
// elements). Pass 1: each block finds what its chunk carries into the next one: the sum after the chunk's last flag,
// walking its tiles from the END and stopping at the first tile that holds a flag (usually after one tile: nothing
// before a flag matters). Pass 2: one block scans those chunk carries. Pass 3: each block scans its chunk tile by
// tile, starting from its chunk's carry. Since rung 1: every element is read by a coalesced 16-byte load, the work no
// longer depends on segment lengths, and the input is read about once (plus pass 1's few tiles per chunk).
//
// The scan works on pairs (s, f): f says whether a flag has been seen, s is the sum since the last flag (or of
// everything, if none). Combining a pair a with the pair b that follows it gives (b.f ? b.s : a.s + b.s, a.f | b.f),
// an associative operator, so the usual scan building blocks (warp shuffles, then warp totals) apply unchanged.
#include <cuda_runtime.h>

#include <cstdint>

#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)  // elements per block per step
#define MAX_CHUNKS 1024          // one block of pass 2 scans them all
#define FULL_MASK 0xffffffffu

struct Seg {
  float s;
  int f;
};

__device__ Seg combine(Seg a, Seg b) { return Seg{b.f ? b.s : a.s + b.s, a.f | b.f}; }

__device__ float g_chunk_sum[MAX_CHUNKS];   // pass 1: the sum after the chunk's last flag (all of it if none)
__device__ int g_chunk_flag[MAX_CHUNKS];    // pass 1: whether the chunk holds a flag
__device__ float g_chunk_carry[MAX_CHUNKS]; // pass 2: the sum carried into the chunk

__device__ Seg warp_inclusive_scan(Seg v) {
  const int lane = threadIdx.x % 32;
  for (int d = 1; d < 32; d *= 2) {
    const float s = __shfl_up_sync(FULL_MASK, v.s, d);
    const int f = __shfl_up_sync(FULL_MASK, v.f, d);
    if (lane >= d) v = combine(Seg{s, f}, v);
  }
  return v;
}

// Exclusive scan of one pair per thread over a block of BLOCK threads (every thread must call it); *total gets the
// combination of all of them.
template <int BLOCK>
__device__ Seg block_exclusive_scan(Seg v, Seg* total) {
  constexpr int WARPS = BLOCK / 32;
  __shared__ float warp_sum[WARPS];
  __shared__ int warp_flag[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const Seg inclusive = warp_inclusive_scan(v);
  if (lane == 31) {
    warp_sum[warp] = inclusive.s;
    warp_flag[warp] = inclusive.f;
  }
  __syncthreads();
  if (warp == 0) {  // scan the warp totals: inclusive over warps afterwards
    Seg w = lane < WARPS ? Seg{warp_sum[lane], warp_flag[lane]} : Seg{0.0f, 0};
    w = warp_inclusive_scan(w);
    if (lane < WARPS) {
      warp_sum[lane] = w.s;
      warp_flag[lane] = w.f;
    }
  }
  __syncthreads();
  const float up_s = __shfl_up_sync(FULL_MASK, inclusive.s, 1);
  const int up_f = __shfl_up_sync(FULL_MASK, inclusive.f, 1);
  Seg exclusive = lane == 0 ? Seg{0.0f, 0} : Seg{up_s, up_f};
  if (warp > 0) exclusive = combine(Seg{warp_sum[warp - 1], warp_flag[warp - 1]}, exclusive);
  *total = Seg{warp_sum[WARPS - 1], warp_flag[WARPS - 1]};
  __syncthreads();  // the shared totals are rewritten by the next call
  return exclusive;
}

// The ITEMS elements from base on (values 0 and flags 0 at and past end, which changes no sum before them): one
// 16-byte load of each array when all are in range and aligned.
__device__ void load_items(const float* values, const int* flags, long long base, long long end, bool aligned,
                           float v[ITEMS], int f[ITEMS]) {
  if (aligned && base + ITEMS - 1 < end) {
    const float4 a = *reinterpret_cast<const float4*>(values + base);
    const int4 b = *reinterpret_cast<const int4*>(flags + base);
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
    f[0] = b.x, f[1] = b.y, f[2] = b.z, f[3] = b.w;
    return;
  }
  for (int q = 0; q < ITEMS; ++q) {
    v[q] = base + q < end ? values[base + q] : 0.0f;
    f[q] = base + q < end ? flags[base + q] : 0;
  }
}

__device__ Seg thread_total(const float v[ITEMS], const int f[ITEMS]) {
  Seg a{0.0f, 0};
  for (int q = 0; q < ITEMS; ++q) a = combine(a, Seg{v[q], f[q]});
  return a;
}

// Pass 1: g_chunk_sum/flag[b] = the pair of chunk b, found from its last tile backwards.
__global__ void chunk_totals(const float* values, const int* flags, int n, int chunk, bool aligned) {
  const long long start = (long long)blockIdx.x * chunk;
  const long long end = min((long long)n, start + chunk);
  const long long tiles = (end - start + TILE - 1) / TILE;
  Seg after{0.0f, 0};  // the pair of the tiles after tile t
  for (long long t = tiles - 1; t >= 0; --t) {
    const long long base = start + t * TILE + threadIdx.x * ITEMS;
    float v[ITEMS];
    int f[ITEMS];
    load_items(values, flags, base, end, aligned, v, f);
    Seg tile;
    block_exclusive_scan<THREADS>(thread_total(v, f), &tile);
    after = combine(tile, after);
    if (after.f) break;  // every thread read the same tile total: the whole block leaves together
  }
  if (threadIdx.x == 0) {
    g_chunk_sum[blockIdx.x] = after.s;
    g_chunk_flag[blockIdx.x] = after.f;
  }
}

// Pass 2, one block of MAX_CHUNKS threads: g_chunk_carry = exclusive scan of the chunk pairs (its sum part).
__global__ void scan_chunk_totals(int chunks) {
  const int c = threadIdx.x;
  const Seg v = c < chunks ? Seg{g_chunk_sum[c], g_chunk_flag[c]} : Seg{0.0f, 0};
  Seg total;
  const Seg before = block_exclusive_scan<MAX_CHUNKS>(v, &total);
  if (c < chunks) g_chunk_carry[c] = before.s;
}

// Pass 3: scan chunk b tile by tile, starting from its carry.
__global__ void scan_chunks(const float* values, const int* flags, float* output, int n, int chunk, bool aligned) {
  const long long start = (long long)blockIdx.x * chunk;
  const long long end = min((long long)n, start + chunk);
  Seg carry{g_chunk_carry[blockIdx.x], 0};
  for (long long tile = start; tile < end; tile += TILE) {
    const long long base = tile + threadIdx.x * ITEMS;
    float v[ITEMS];
    int f[ITEMS];
    load_items(values, flags, base, end, aligned, v, f);
    Seg tile_total;
    const Seg before = block_exclusive_scan<THREADS>(thread_total(v, f), &tile_total);
    Seg acc = combine(carry, before);
    float y[ITEMS];
    for (int q = 0; q < ITEMS; ++q) {
      y[q] = f[q] ? 0.0f : acc.s;
      acc = combine(acc, Seg{v[q], f[q]});
    }
    if (aligned && base + ITEMS - 1 < end) {
      *reinterpret_cast<float4*>(output + base) = make_float4(y[0], y[1], y[2], y[3]);
    } else {
      for (int q = 0; q < ITEMS; ++q)
        if (base + q < end) output[base + q] = y[q];
    }
    carry = combine(carry, tile_total);
  }
}

// values, flags and output point to GPU memory.
extern "C" void solve(const float* values, const int* flags, float* output, int N) {
  const bool aligned = (reinterpret_cast<std::uintptr_t>(values) | reinterpret_cast<std::uintptr_t>(flags) |
                        reinterpret_cast<std::uintptr_t>(output)) % 16 == 0;
  const long long tiles = ((long long)N + TILE - 1) / TILE;
  const long long max_chunks = tiles < MAX_CHUNKS ? tiles : MAX_CHUNKS;
  const int chunk = (int)((tiles + max_chunks - 1) / max_chunks) * TILE;  // whole tiles, so chunks stay aligned
  const int chunks = (int)(((long long)N + chunk - 1) / chunk);
  chunk_totals<<<chunks, THREADS>>>(values, flags, N, chunk, aligned);
  scan_chunk_totals<<<1, MAX_CHUNKS>>>(chunks);
  scan_chunks<<<chunks, THREADS>>>(values, flags, output, N, chunk, aligned);
  cudaDeviceSynchronize();
}
