// expect: wrong_answer
// expect-message: is not sorted
// Rung 2 of the examples with two passes instead of four: it sorts by the low 16 bits only (as if the keys were
// 16-bit, or with the pass count computed from a "typical" maximum). Each pass is correct and stable, so the keys come
// out ordered by their low half and, within equal low halves, in input order; keys that differ above bit 15 are not
// ordered. top_bit_1001 and every full-range test catch it; high_half_only_4099 (all low halves zero) comes out in
// input order.
#include <cuda_runtime.h>

#include <vector>

#define THREADS 256  // = RADIX: thread d handles digit d wherever a per-digit loop is needed
#define WARPS (THREADS / 32)
#define RADIX 256
#define ITEMS 16                      // keys per thread
#define TILE (THREADS * ITEMS)        // keys per block
#define WARP_KEYS (32 * ITEMS)        // a warp owns a contiguous run of the tile

// ---- Exclusive scan of unsigned ints (the same multi-level scan as rung 1) ----

__global__ void scan_blocks(const unsigned int* in, unsigned int* out, unsigned int* block_sums, int n) {
  __shared__ unsigned int buf[2][THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  const unsigned int x = i < n ? in[i] : 0u;
  int cur = 0;
  buf[cur][threadIdx.x] = x;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset *= 2) {
    unsigned int v = buf[cur][threadIdx.x];
    if (threadIdx.x >= offset) v += buf[cur][threadIdx.x - offset];
    buf[1 - cur][threadIdx.x] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  const unsigned int inclusive = buf[cur][threadIdx.x];
  if (i < n) out[i] = inclusive - x;
  if (block_sums != nullptr && threadIdx.x == THREADS - 1) block_sums[blockIdx.x] = inclusive;
}

__global__ void add_block_offsets(unsigned int* data, const unsigned int* offsets, int n) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) data[i] += offsets[blockIdx.x];
}

void exclusive_scan(unsigned int* data, int n, unsigned int* const* levels) {
  const int blocks = (n + THREADS - 1) / THREADS;
  if (blocks == 1) {
    scan_blocks<<<1, THREADS>>>(data, data, nullptr, n);
    return;
  }
  scan_blocks<<<blocks, THREADS>>>(data, data, levels[0], n);
  exclusive_scan(levels[0], blocks, levels + 1);
  add_block_offsets<<<blocks, THREADS>>>(data, levels[0], n);
}

// ---- The radix passes ----

// Step 1: counts[d * tiles + tile] = number of keys of this tile whose digit is d.
__global__ void tile_histogram(const unsigned int* keys, unsigned int* counts, int n, int shift, int tiles) {
  __shared__ unsigned int hist[RADIX];
  hist[threadIdx.x] = 0;
  __syncthreads();
  const int base = blockIdx.x * TILE;
  for (int k = threadIdx.x; k < TILE; k += THREADS) {
    const int i = base + k;
    if (i < n) atomicAdd(&hist[(keys[i] >> shift) & (RADIX - 1)], 1u);
  }
  __syncthreads();
  counts[threadIdx.x * tiles + blockIdx.x] = hist[threadIdx.x];
}

// Step 3: starts[d * tiles + tile] (the scanned table) is where this tile's keys of digit d begin in dst.
__global__ void tile_scatter(const unsigned int* src, unsigned int* dst, const unsigned int* starts, int n, int shift,
                             int tiles) {
  __shared__ unsigned int warp_count[WARPS][RADIX];  // keys of each digit seen so far by each warp
  __shared__ unsigned int start[RADIX];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int k = threadIdx.x; k < WARPS * RADIX; k += THREADS) (&warp_count[0][0])[k] = 0;
  start[threadIdx.x] = starts[threadIdx.x * tiles + blockIdx.x];
  __syncthreads();

  const unsigned int lower_lanes = (1u << lane) - 1u;
  const int warp_base = blockIdx.x * TILE + warp * WARP_KEYS;
  unsigned int key[ITEMS], rank[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    // Row j of the warp: keys warp_base + 32j + lane, so (j, lane) order is index order.
    const int i = warp_base + j * 32 + lane;
    const bool valid = i < n;
    key[j] = valid ? src[i] : 0u;
    const unsigned int d = valid ? (key[j] >> shift) & (RADIX - 1) : RADIX;  // RADIX: past the end, no bucket
    const unsigned int peers = __match_any_sync(0xffffffffu, d);
    const unsigned int before = __popc(peers & lower_lanes);
    rank[j] = valid ? warp_count[warp][d] + before : 0u;
    __syncwarp();  // every lane has read its counter before the group leader (its lowest lane) adds the group
    if (valid && before == 0) warp_count[warp][d] += __popc(peers);
    __syncwarp();
  }
  __syncthreads();
  // Thread d turns warp_count[.][d] into an exclusive prefix over the warps: warp w's keys of digit d come after
  // those of warps 0..w-1.
  unsigned int sum = 0;
  for (int w = 0; w < WARPS; ++w) {
    const unsigned int c = warp_count[w][threadIdx.x];
    warp_count[w][threadIdx.x] = sum;
    sum += c;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int i = warp_base + j * 32 + lane;
    if (i < n) {
      const unsigned int d = (key[j] >> shift) & (RADIX - 1);
      dst[start[d] + warp_count[warp][d] + rank[j]] = key[j];
    }
  }
}

// input, output are device pointers
extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
  const int tiles = (N + TILE - 1) / TILE;
  const int table = RADIX * tiles;  // digit-major counts, then their scan
  std::vector<int> level_sizes;
  for (int m = (table + THREADS - 1) / THREADS; m > 1; m = (m + THREADS - 1) / THREADS) level_sizes.push_back(m);
  size_t total = (size_t)N + table;
  for (int s : level_sizes) total += s;
  unsigned int* scratch = nullptr;
  cudaMalloc(&scratch, total * sizeof(unsigned int));
  unsigned int* tmp = scratch;
  unsigned int* counts = scratch + N;
  std::vector<unsigned int*> levels;
  unsigned int* p = counts + table;
  for (int s : level_sizes) {
    levels.push_back(p);
    p += s;
  }
  levels.push_back(nullptr);

  // 2 passes: input -> tmp -> output.
  const unsigned int* src = input;
  for (int pass = 0; pass < 2; ++pass) {  // BUG: bits 16..31 are never sorted on
    const int shift = 8 * pass;
    unsigned int* dst = pass % 2 == 0 ? tmp : output;
    tile_histogram<<<tiles, THREADS>>>(src, counts, N, shift, tiles);
    exclusive_scan(counts, table, levels.data());
    tile_scatter<<<tiles, THREADS>>>(src, dst, counts, N, shift, tiles);
    src = dst;
  }
  cudaDeviceSynchronize();
  cudaFree(scratch);
}
