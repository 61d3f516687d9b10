// Rung 2: many blocks per row, reduce then scan. Tiles of 1024 elements of one row (256 threads x 4, one float4 each of
// a and x). Pass 1: each tile composes its 1024 maps into one (thread map, then warp shuffles, then the 8 warps).
// Pass 2: one thread per row walks its tiles' maps and writes the h entering each tile. Pass 3: each tile scans
// again from that carry (exclusive map per thread by warp shuffles) and writes h. Since rung 1: B x L/1024 blocks
// instead of B, so short batches fill the GPU; coalesced 16-byte loads; shuffles instead of shared-memory rounds.
// The inputs are read twice (the second time mostly from L2 at LeetGPU's size).
#include <cuda_runtime.h>

#include <cstdint>

#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)
#define WARPS (THREADS / 32)
#define MAX_TILES (256 * (65536 / TILE))  // B <= 256, L <= 65536

struct Map {  // h -> a h + b
  float a, b;
};
__device__ Map compose(Map first, Map then) { return {first.a * then.a, then.a * first.b + then.b}; }
__device__ Map identity() { return {1.0f, 0.0f}; }

__device__ Map g_tile_map[MAX_TILES];
__device__ float g_tile_carry[MAX_TILES];  // h just before each tile

__device__ Map shfl_up(Map m, int d) {
  return {__shfl_up_sync(0xffffffffu, m.a, d), __shfl_up_sync(0xffffffffu, m.b, d)};
}

__device__ Map warp_inclusive_scan(Map m) {
  const int lane = threadIdx.x % 32;
  for (int d = 1; d < 32; d *= 2) {
    const Map up = shfl_up(m, d);
    if (lane >= d) m = compose(up, m);
  }
  return m;
}

// The 4 elements of a row from t on; past the row's end the identity map (a = 1, x = 0).
__device__ void load4(const float* a, const float* x, long long row, int t, int L, bool vec, float* av, float* xv) {
  if (vec && t + 3 < L) {
    const float4 qa = *reinterpret_cast<const float4*>(a + row + t);
    const float4 qx = *reinterpret_cast<const float4*>(x + row + t);
    av[0] = qa.x, av[1] = qa.y, av[2] = qa.z, av[3] = qa.w;
    xv[0] = qx.x, xv[1] = qx.y, xv[2] = qx.z, xv[3] = qx.w;
  } else {
    for (int i = 0; i < 4; ++i) {
      av[i] = t + i < L ? a[row + t + i] : 1.0f;
      xv[i] = t + i < L ? x[row + t + i] : 0.0f;
    }
  }
  if (t == 0) av[0] = 0.0f;  // h[b, 0] = x[b, 0]
}

// Block-wide: the map of this thread's 4 elements composed after everything before it in the tile (returned), and
// the whole tile's map in *tile_map.
__device__ Map block_exclusive_scan(Map own, Map* tile_map) {
  __shared__ Map warp_total[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const Map inc = warp_inclusive_scan(own);
  if (lane == 31) warp_total[warp] = inc;
  Map exc = shfl_up(inc, 1);
  if (lane == 0) exc = identity();
  __syncthreads();
  Map before = identity(), total = identity();
  for (int w = 0; w < WARPS; ++w) {
    if (w == warp) before = total;
    total = compose(total, warp_total[w]);
  }
  *tile_map = total;
  return compose(before, exc);
}

__global__ void tile_maps(const float* a, const float* x, int L, bool vec) {
  const long long row = (long long)blockIdx.y * L;
  const int t = blockIdx.x * TILE + threadIdx.x * ITEMS;
  float av[4], xv[4];
  load4(a, x, row, t, L, vec, av, xv);
  Map own = {av[0], xv[0]};
  for (int i = 1; i < 4; ++i) own = compose(own, Map{av[i], xv[i]});
  Map total;
  block_exclusive_scan(own, &total);
  if (threadIdx.x == 0) g_tile_map[blockIdx.y * gridDim.x + blockIdx.x] = total;
}

__global__ void row_carries(int B, int tiles_per_row) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  float h = 0.0f;
  for (int k = 0; k < tiles_per_row; ++k) {
    const int i = b * tiles_per_row + k;
    g_tile_carry[i] = h;
    h = g_tile_map[i].a * h + g_tile_map[i].b;
  }
}

__global__ void tile_scan(const float* a, const float* x, float* h, int L, bool vec) {
  const long long row = (long long)blockIdx.y * L;
  const int t = blockIdx.x * TILE + threadIdx.x * ITEMS;
  float av[4], xv[4];
  load4(a, x, row, t, L, vec, av, xv);
  Map own = {av[0], xv[0]};
  for (int i = 1; i < 4; ++i) own = compose(own, Map{av[i], xv[i]});
  Map total;
  const Map before = block_exclusive_scan(own, &total);
  float v = before.a * g_tile_carry[blockIdx.y * gridDim.x + blockIdx.x] + before.b;
  float out[4];
  for (int i = 0; i < 4; ++i) out[i] = v = av[i] * v + xv[i];
  if (vec && t + 3 < L) {
    *reinterpret_cast<float4*>(h + row + t) = make_float4(out[0], out[1], out[2], out[3]);
  } else {
    for (int i = 0; i < 4; ++i)
      if (t + i < L) h[row + t + i] = out[i];
  }
}

// a, x, h are device pointers
extern "C" void solve(const float* a, const float* x, float* h, int B, int L) {
  const int tiles_per_row = (L + TILE - 1) / TILE;
  // float4 only where every row starts 16-byte aligned
  const bool vec = L % 4 == 0 && ((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(x) |
                                   reinterpret_cast<std::uintptr_t>(h)) % 16) == 0;
  const dim3 grid(tiles_per_row, B);
  tile_maps<<<grid, THREADS>>>(a, x, L, vec);
  row_carries<<<(B + 255) / 256, 256>>>(B, tiles_per_row);
  tile_scan<<<grid, THREADS>>>(a, x, h, L, vec);
  cudaDeviceSynchronize();
}
