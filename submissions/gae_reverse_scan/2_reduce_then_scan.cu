// Rung 2: many blocks per row, reduce then scan, everything mirrored to run from the right. Tiles of 1024 elements of
// one row (256 threads x 4, one float4 each of rewards and values, plus the value after the thread's last element).
// Pass 1: each tile composes its maps A -> c A + delta into one (thread map, warp shuffles from the high lanes down,
// then the 8 warps from the last). Pass 2: one thread per row walks its tiles from the last and writes the advantage
// just right of each. Pass 3: each tile scans again from that carry and writes the advantages. Since rung 1:
// B x S/1024 blocks instead of B, coalesced 16-byte loads, shuffles instead of shared-memory rounds.
#include <cuda_runtime.h>

#include <cstdint>

#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)
#define WARPS (THREADS / 32)
#define MAX_TILES (256 * (65536 / TILE))  // B <= 256, S <= 65536

struct Map {  // A -> a A + b
  float a, b;
};
__device__ Map compose(Map first, Map then) { return {first.a * then.a, then.a * first.b + then.b}; }
__device__ Map identity() { return {1.0f, 0.0f}; }

__device__ Map g_tile_map[MAX_TILES];
__device__ float g_tile_carry[MAX_TILES];  // the advantage just right of each tile

__device__ Map shfl_down(Map m, int d) {
  return {__shfl_down_sync(0xffffffffu, m.a, d), __shfl_down_sync(0xffffffffu, m.b, d)};
}

// Lane i ends with the maps of lanes 31 .. i composed in that order (the right end of the warp's elements first).
__device__ Map warp_scan_from_right(Map m) {
  const int lane = threadIdx.x % 32;
  for (int d = 1; d < 32; d *= 2) {
    const Map right = shfl_down(m, d);
    if (lane + d < 32) m = compose(right, m);
  }
  return m;
}

// This thread's 4 elements from t on as maps (a = c, b = delta); past the row's end the identity.
__device__ void load_maps(const float* rewards, const float* values, long long row, int t, int S, bool vec,
                          float gamma, float c, Map* m) {
  float r[4], v[5];
  if (vec && t + 3 < S) {
    const float4 qr = *reinterpret_cast<const float4*>(rewards + row + t);
    const float4 qv = *reinterpret_cast<const float4*>(values + row + t);
    r[0] = qr.x, r[1] = qr.y, r[2] = qr.z, r[3] = qr.w;
    v[0] = qv.x, v[1] = qv.y, v[2] = qv.z, v[3] = qv.w;
  } else {
    for (int j = 0; j < 4; ++j) {
      r[j] = t + j < S ? rewards[row + t + j] : 0.0f;
      v[j] = t + j < S ? values[row + t + j] : 0.0f;
    }
  }
  v[4] = t + 4 < S ? values[row + t + 4] : 0.0f;  // the next thread's first value; 0 past the row's end
  for (int j = 0; j < 4; ++j) {
    const bool in = t + j < S;
    m[j] = in ? Map{c, r[j] + gamma * (t + j + 1 < S ? v[j + 1] : 0.0f) - v[j]} : identity();
  }
}

// Block-wide: the map of everything right of this thread's elements in the tile (returned), and the whole tile's map.
__device__ Map block_scan_from_right(Map own, Map* tile_map) {
  __shared__ Map warp_total[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const Map inc = warp_scan_from_right(own);
  if (lane == 0) warp_total[warp] = inc;
  Map exc = shfl_down(inc, 1);
  if (lane == 31) exc = identity();
  __syncthreads();
  Map after = identity(), total = identity();
  for (int w = WARPS - 1; w >= 0; --w) {
    if (w == warp) after = total;
    total = compose(total, warp_total[w]);
  }
  *tile_map = total;
  return compose(after, exc);
}

__device__ Map thread_map(const Map* m) {
  Map own = m[3];
  for (int j = 2; j >= 0; --j) own = compose(own, m[j]);
  return own;
}

__global__ void tile_maps(const float* rewards, const float* values, int S, bool vec, float gamma, float c) {
  const long long row = (long long)blockIdx.y * S;
  const int t = blockIdx.x * TILE + threadIdx.x * ITEMS;
  Map m[4];
  load_maps(rewards, values, row, t, S, vec, gamma, c, m);
  Map total;
  block_scan_from_right(thread_map(m), &total);
  if (threadIdx.x == 0) g_tile_map[blockIdx.y * gridDim.x + blockIdx.x] = total;
}

__global__ void row_carries(int B, int tiles_per_row) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  float adv = 0.0f;  // the advantage past the row's end
  for (int k = tiles_per_row - 1; k >= 0; --k) {
    const int i = b * tiles_per_row + k;
    g_tile_carry[i] = adv;
    adv = g_tile_map[i].a * adv + g_tile_map[i].b;
  }
}

__global__ void tile_scan(const float* rewards, const float* values, float* advantages, int S, bool vec, float gamma,
                          float c) {
  const long long row = (long long)blockIdx.y * S;
  const int t = blockIdx.x * TILE + threadIdx.x * ITEMS;
  Map m[4];
  load_maps(rewards, values, row, t, S, vec, gamma, c, m);
  Map total;
  const Map after = block_scan_from_right(thread_map(m), &total);
  float adv = after.a * g_tile_carry[blockIdx.y * gridDim.x + blockIdx.x] + after.b;
  float out[4];
  for (int j = 3; j >= 0; --j) out[j] = adv = m[j].a * adv + m[j].b;
  if (vec && t + 3 < S) {
    *reinterpret_cast<float4*>(advantages + row + t) = make_float4(out[0], out[1], out[2], out[3]);
  } else {
    for (int j = 0; j < 4; ++j)
      if (t + j < S) advantages[row + t + j] = out[j];
  }
}

// rewards, values, advantages are device pointers
extern "C" void solve(const float* rewards, const float* values, float* advantages, float gamma, float lam, int B,
                      int S) {
  const int tiles_per_row = (S + TILE - 1) / TILE;
  // float4 only where every row starts 16-byte aligned
  const bool vec = S % 4 == 0 && ((reinterpret_cast<std::uintptr_t>(rewards) | reinterpret_cast<std::uintptr_t>(values) |
                                   reinterpret_cast<std::uintptr_t>(advantages)) % 16) == 0;
  const float c = gamma * lam;
  const dim3 grid(tiles_per_row, B);
  tile_maps<<<grid, THREADS>>>(rewards, values, S, vec, gamma, c);
  row_carries<<<(B + 255) / 256, 256>>>(B, tiles_per_row);
  tile_scan<<<grid, THREADS>>>(rewards, values, advantages, S, vec, gamma, c);
  cudaDeviceSynchronize();
}
