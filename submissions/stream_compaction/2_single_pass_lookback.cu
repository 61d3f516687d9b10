// Rung 2: one pass over A with decoupled look-back (the single-pass scan of Merrill & Garland, as in CUB's select).
// Each block takes the next tile of 4096 elements (16 per thread, as four float4 loads), counts its kept elements,
// publishes that count at once, then adds up its predecessors' published counts (a warp looks at 32 of them at a time
// and stops at the first that has published its full prefix) and scatters. A second, light kernel writes the zeros
// from k on. Since rung 1: A is read once instead of twice, in 16-byte loads, and no separate scan kernel is needed.
#include <cuda_runtime.h>

#include <cstdint>

#define THREADS 256
#define WARPS (THREADS / 32)
#define GROUPS 4                         // float4 loads per thread
#define TILE (THREADS * 4 * GROUPS)      // elements per tile
#define FLAG_AGGREGATE 1ull              // the tile's own count is published
#define FLAG_PREFIX 2ull                 // the count of this tile and every tile before it is published

// The four elements from e on, 0 at and past n (0 is never kept): one 16-byte load when all four are in range.
__device__ float4 load4(const float* A, long long e, long long n, bool aligned) {
  if (aligned && e + 3 < n) return *reinterpret_cast<const float4*>(A + e);
  float4 v;
  v.x = e < n ? A[e] : 0.0f;
  v.y = e + 1 < n ? A[e + 1] : 0.0f;
  v.z = e + 2 < n ? A[e + 2] : 0.0f;
  v.w = e + 3 < n ? A[e + 3] : 0.0f;
  return v;
}

__device__ unsigned long long warp_inclusive_scan(unsigned long long v) {
  const int lane = threadIdx.x % 32;
  for (int d = 1; d < 32; d *= 2) {
    const unsigned long long up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

__device__ unsigned warp_sum(unsigned v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// status[t]: flag in the high 32 bits, count in the low 32, written as one 64-bit word so that a reader sees both or
// neither. next_tile hands tiles out in launch order, so every tile a block waits on belongs to a block already
// running, which publishes its aggregate before it waits on anything: the look-back cannot deadlock.
__global__ void __launch_bounds__(THREADS) compact_kernel(const float* A, long long n, float* out,
                                                          unsigned long long* status, unsigned* next_tile,
                                                          unsigned* total) {
  __shared__ unsigned s_tile, s_prefix;
  __shared__ unsigned long long warp_incl[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) s_tile = atomicAdd(next_tile, 1u);
  __syncthreads();
  const unsigned tile = s_tile;
  const long long base = (long long)tile * TILE;
  const bool aligned = reinterpret_cast<std::uintptr_t>(A) % 16 == 0;

  // Group g of the tile is elements base + g * THREADS * 4 ..., thread t holding 4 consecutive ones of each group.
  // The per-group counts (0..4 each, at most 1024 over the block) are packed 16 bits apiece into one 64-bit value,
  // so a single block scan gives the position of every group's elements at once, without carries between fields.
  float4 v[GROUPS];
  unsigned bits[GROUPS];
  unsigned long long packed = 0;
  for (int g = 0; g < GROUPS; ++g) {
    v[g] = load4(A, base + ((long long)g * THREADS + threadIdx.x) * 4, n, aligned);
    bits[g] = (v[g].x > 0.0f) | (v[g].y > 0.0f) << 1 | (v[g].z > 0.0f) << 2 | (v[g].w > 0.0f) << 3;
    packed |= (unsigned long long)__popc(bits[g]) << (16 * g);
  }
  const unsigned long long incl = warp_inclusive_scan(packed);
  if (lane == 31) warp_incl[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const unsigned long long w = warp_inclusive_scan(lane < WARPS ? warp_incl[lane] : 0ull);
    if (lane < WARPS) warp_incl[lane] = w;
  }
  __syncthreads();
  const unsigned long long excl = incl - packed + (warp > 0 ? warp_incl[warp - 1] : 0ull);
  const unsigned long long block_total = warp_incl[WARPS - 1];
  unsigned aggregate = 0;
  for (int g = 0; g < GROUPS; ++g) aggregate += (unsigned)(block_total >> (16 * g)) & 0xffffu;

  // Look-back, by warp 0: lane j reads tile - 1 - j, waiting until it has published something.
  if (warp == 0) {
    volatile unsigned long long* vs = status;
    unsigned prefix = 0;
    if (tile > 0) {
      if (lane == 0) vs[tile] = FLAG_AGGREGATE << 32 | aggregate;
      long long p = (long long)tile - 1 - lane;
      while (true) {
        unsigned long long s = FLAG_PREFIX << 32;  // before tile 0: a full prefix of 0
        if (p >= 0) {
          do s = vs[p];
          while ((s >> 32) == 0);
        }
        const unsigned is_prefix = __ballot_sync(0xffffffffu, (s >> 32) == FLAG_PREFIX);
        if (is_prefix) {  // the nearest tile with a full prefix ends the look-back; lanes beyond it do not count
          const int stop = __ffs(is_prefix) - 1;
          prefix += warp_sum(lane <= stop ? (unsigned)s : 0u);
          break;
        }
        prefix += warp_sum((unsigned)s);
        p -= 32;
      }
    }
    if (lane == 0) {
      vs[tile] = FLAG_PREFIX << 32 | (prefix + aggregate);
      s_prefix = prefix;
      if (tile == gridDim.x - 1) *total = prefix + aggregate;
    }
  }
  __syncthreads();

  unsigned pos = s_prefix;
  for (int g = 0; g < GROUPS; ++g) {
    unsigned at = pos + ((unsigned)(excl >> (16 * g)) & 0xffffu);
    if (bits[g] & 1u) out[at++] = v[g].x;
    if (bits[g] & 2u) out[at++] = v[g].y;
    if (bits[g] & 4u) out[at++] = v[g].z;
    if (bits[g] & 8u) out[at++] = v[g].w;
    pos += (unsigned)(block_total >> (16 * g)) & 0xffffu;
  }
}

// out[k..n) = 0 with k = *total: single floats up to the first multiple of 4, then float4, then the last n % 4.
__global__ void zero_tail(float* out, const unsigned* total, long long n, bool aligned) {
  const long long k = *total;
  const long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long a = aligned ? min(n, (k + 3) / 4 * 4) : n;
  const long long n4 = (n - a) / 4;
  for (long long i = k + first; i < a; i += stride) out[i] = 0.0f;
  float4* out4 = reinterpret_cast<float4*>(out + a);
  for (long long i = first; i < n4; i += stride) out4[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (long long i = a + 4 * n4 + first; i < n; i += stride) out[i] = 0.0f;
}

// A and out point to GPU memory.
extern "C" void solve(const float* A, int N, float* out) {
  const int tiles = (N + TILE - 1) / TILE;
  // status[0..tiles), then next_tile and total in one more 8-byte slot; kept between calls, grown when N needs more
  static unsigned long long* scratch = nullptr;
  static int capacity = 0;
  if (tiles + 1 > capacity) {
    cudaFree(scratch);
    capacity = tiles + 1;
    cudaMalloc(&scratch, capacity * sizeof(unsigned long long));
  }
  unsigned* counters = reinterpret_cast<unsigned*>(scratch + tiles);
  cudaMemsetAsync(scratch, 0, (tiles + 1) * sizeof(unsigned long long));
  compact_kernel<<<tiles, THREADS>>>(A, N, out, scratch, counters, counters + 1);
  static int sms = 0;
  if (sms == 0) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }
  const bool aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  zero_tail<<<sms * 8, THREADS>>>(out, counters + 1, N, aligned);
  cudaDeviceSynchronize();
}
