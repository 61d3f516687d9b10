// Reference for challenges/top_k_selection: output = the k largest inputs, in descending order.
//
// Keys: each float becomes an unsigned key that orders like the value (flip every bit of a negative number, only the
// sign bit of the others), so -0 sorts just below +0; the checker compares values, and -0 == +0 there.
//
// k <= 4096 (both benchmarks, every test but n100003_k100003): ONE cooperative kernel that reads the input once.
// The grid is one wave of resident blocks (cooperative launch guarantees it, so blocks may wait for each other); each
// block owns a contiguous chunk of the input.
//   1. Sample: each block's first 4096 elements (8 per thread), a stratified sample of S = min(N, blocks * 4096)
//      elements that the pass reads anyway. Each thread keeps the largest key of its 8; each warp publishes the top
//      w of its 32 thread maxima. The last block to arrive picks t = the r-th largest of those G * 16 * w values
//      (0 when r exceeds their number). r distinct groups have their maximum >= t, so at least r inputs are >= t.
//      r = k when S = N (t is then always low enough), else r = min(k, q + 6 sqrt(q) + 8) with q = k S / N, the
//      expected number of samples among the k largest: t is too high (fewer than k inputs >= t) only when more
//      than r samples fall among them, a Poisson tail below 1e-8 for i.i.d. inputs. Meanwhile blocks prefetch their
//      first tile.
//   2. Filter: every element >= t (float compare: an up-set of the key order) is appended to a candidate list of
//      capacity 16384 with one atomic per warp and hit slot (hits are rare); a warp whose append overflows the
//      list stops early. The count is exact unless it overflows.
//   3. The last block to arrive decides. If k <= M <= 16384 (M = count), the list holds every input above the k-th
//      largest: it loads the M keys into shared memory, radix-selects the k-th largest key T among them (8-bit
//      digits below the common prefix of the smallest and largest key), collects the keys > T (fewer than k),
//      bitonic-sorts them descending and writes them, then copies of T up to k. The other blocks exit.
//   4. Otherwise (M < k: t too high; M > 16384: ties or a skewed or ordered input) every block stays for an exact
//      radix select over the whole input inside the same kernel: histograms of 11, 11 and 10 key bits (three
//      passes, each narrowing to the bucket of the k-th largest: grid barrier, last block picks the bin), then a
//      pass collecting the keys > T, sorted and written as in 3. Four more reads of the input, only on this path.
// No host synchronisation, no memset: the kernel leaves its barrier counters and candidate count at 0 for the next
// call. Expected traffic on the fast path: N*4 bytes read, plus the candidates (M*4 bytes written and read back,
// M about 900 for N = 5e7, k = 100 and about 3,600 for N = 1e8, k = 1000 on a 132-SM GPU), plus k*4 written.
//
// k > 4096: the previous reference (radix select, input read twice, CUB sort of the k largest), kept below as
// `legacy`; exact for every k up to N.
//
// Paths exercised by the spec's tests (G = min(resident blocks, ceil(N / 8192))):
//   - legacy: n100003_k100003 (k = N > 4096).
//   - fast path with r = k (t provably low enough: S = N, or q + 6 sqrt(q) + 8 >= k; key t = 0, i.e. everything is
//     a candidate, when r exceeds the published maxima): n1_k1, example_6_k4, n1000_k1, n33_k33, n4097_k100,
//     ties_at_threshold_4099 (T = 3 with 975 of its 2,050 copies, 1,025 fives above), all_equal_1000_k300 (T = 7,
//     no key above it), extremes_4099_k64, negative_10007_k50, n2000003_k100 (S ~ N/2, ~200 candidates).
//   - fast path, statistical r < k: n100003_k1500 (13 blocks, S = 53,248, r = 977, ~2,000 candidates).
//   - in-kernel exact fallback (step 4): no spec test. Inputs that reach it (checked in a model of this kernel):
//     overflow: a constant input with N > 16384, e.g. N = 100000, k = 100 (every element ties with t); values
//     [3, 2, 1 x 62] repeated, N = 100000, k = 4000 (T = 1 with 3,126 keys above it, sorted by the fallback); the
//     custom "sorted" input, N = 100000, k = 1000. Threshold too high (M < k): N = 32768, k = 3000, values
//     [2, 1, 1, 1] x 512 then [1] x 6144 (8,192 values: 4 chunks of 8192, every 2 inside the sampled half; M = 2048).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "judge/worker/reference.hpp"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "top_k_selection";

__device__ __forceinline__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float float_of(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

// ---------------------------------------------------------------------------------------------------------------
// legacy: the radix select used for k > 4096.
namespace legacy {

constexpr int kThreads = 256;
constexpr int kItems = 16;                     // elements per thread per tile (4 float4 loads)
constexpr int kTile = kThreads * kItems;       // 4096
constexpr int kMaxBins = 4096;                 // 12-bit digits; the last digit has 8 bits
constexpr unsigned kMaxGrid = 2048;

struct State {
  unsigned hist[kMaxBins];
  unsigned prefix;      // the bits of t decided so far
  unsigned remaining;   // how many of the k largest are still to be found among keys that match prefix
  unsigned sure_count;  // keys known to be above t, appended to the sure list
  unsigned cand_count;  // keys in t's top-12-bit bin, appended to the candidate list
};
__device__ State g_state;

// One stage of the select: the digit is bits [shift, shift + bits) of the key; with `filter`, only keys whose bits
// above the digit equal the prefix decided so far take part.
struct Digit {
  int shift;
  int bits;
  bool filter;
  __device__ bool matches(unsigned key, unsigned prefix) const {
    return !filter || (key >> (shift + bits)) == (prefix >> (shift + bits));
  }
  __device__ unsigned of(unsigned key) const { return (key >> shift) & ((1u << bits) - 1u); }
};

// The kItems elements of this thread in the tile at `base`, as keys; false where past the end.
__device__ void load_tile(const float* src, long long n, long long base, bool aligned, unsigned (&keys)[kItems],
                          bool (&valid)[kItems]) {
  const long long first = base + static_cast<long long>(threadIdx.x) * 4;
#pragma unroll
  for (int v = 0; v < kItems / 4; ++v) {
    const long long i = first + static_cast<long long>(v) * kThreads * 4;  // coalesced: a warp reads 512 bytes
    if (aligned && i + 3 < n) {
      const float4 x = *reinterpret_cast<const float4*>(src + i);
      keys[4 * v] = key_of(x.x);
      keys[4 * v + 1] = key_of(x.y);
      keys[4 * v + 2] = key_of(x.z);
      keys[4 * v + 3] = key_of(x.w);
#pragma unroll
      for (int e = 0; e < 4; ++e) valid[4 * v + e] = true;
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        valid[4 * v + e] = i + e < n;
        keys[4 * v + e] = valid[4 * v + e] ? key_of(src[i + e]) : 0u;
      }
    }
  }
}

__device__ long long count_of(long long n, const unsigned* n_dev) { return n_dev ? *n_dev : n; }

// tile(keys, valid) for each tile of src[0, n) this block owns (grid-strided), with this thread's kItems elements of it
// as load_tile gives them. Every thread of the block makes the same calls, so tile may hold barriers.
template <class Tile>
__device__ void for_each_tile(const float* src, long long n, Tile tile) {
  const bool aligned = judge::ref::aligned16(src);
  for (long long base = static_cast<long long>(blockIdx.x) * kTile; base < n;
       base += static_cast<long long>(gridDim.x) * kTile) {
    unsigned keys[kItems];
    bool valid[kItems];
    load_tile(src, n, base, aligned, keys, valid);
    tile(keys, valid);
  }
}

__global__ void init_kernel(unsigned k, float* sure, unsigned capacity) {
  if (blockIdx.x == 0)
    for (unsigned i = threadIdx.x; i < kMaxBins; i += blockDim.x) g_state.hist[i] = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    g_state.prefix = 0;
    g_state.remaining = k;
    g_state.sure_count = 0;
    g_state.cand_count = 0;
  }
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < capacity; i += gridDim.x * blockDim.x)
    sure[i] = -INFINITY;
}

// Histogram of the digit over src[0, n) (n from n_dev when given), into g_state.hist.
__global__ void histogram_kernel(const float* src, long long n_host, const unsigned* n_dev, Digit d) {
  __shared__ unsigned h[kMaxBins];
  const int bins = 1 << d.bits;
  for (int b = threadIdx.x; b < bins; b += kThreads) h[b] = 0;
  __syncthreads();
  const unsigned prefix = g_state.prefix;
  for_each_tile(src, count_of(n_host, n_dev), [&](const unsigned (&keys)[kItems], const bool (&valid)[kItems]) {
#pragma unroll
    for (int e = 0; e < kItems; ++e)
      if (valid[e] && d.matches(keys[e], prefix)) atomicAdd(&h[d.of(keys[e])], 1u);
  });
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += kThreads)
    if (h[b]) atomicAdd(&g_state.hist[b], h[b]);
}

// One block: find the bin B of the k-th largest among the remaining keys (count above B < remaining <= count above
// B plus B's own count), record it in the prefix, subtract the count above, and clear the histogram for the next
// stage. The histogram is staged in shared memory; thread t owns a run of consecutive bins, thread 0 the highest.
__global__ void select_kernel(Digit d) {
  using Scan = cub::BlockScan<unsigned, kThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ unsigned h[kMaxBins];
  const int bins = 1 << d.bits;
  for (int b = threadIdx.x; b < bins; b += kThreads) {
    h[b] = g_state.hist[b];
    g_state.hist[b] = 0;
  }
  const unsigned remaining = g_state.remaining;  // read before the barriers below; one thread rewrites it
  __syncthreads();
  const int per_thread = bins / kThreads;          // 16 or 1
  const int hi = bins - threadIdx.x * per_thread;  // this thread's bins: [hi - per_thread, hi)
  unsigned mine = 0;
  for (int b = hi - 1; b >= hi - per_thread; --b) mine += h[b];
  unsigned above = 0;
  Scan(scan_storage).ExclusiveSum(mine, above);
  for (int b = hi - 1; b >= hi - per_thread; --b) {
    if (above < remaining && above + h[b] >= remaining) {
      g_state.prefix |= static_cast<unsigned>(b) << d.shift;
      g_state.remaining = remaining - above;
    }
    above += h[b];
  }
}

// Keys whose digit is above the selected one go to the sure list; with cand != nullptr, keys whose digit equals it
// go to the candidate list. Appends are reserved once per block and tile (a block-wide scan of the counts), so the
// global counters see one atomic per 4096 elements, not one per candidate.
__global__ void split_kernel(const float* src, long long n_host, const unsigned* n_dev, Digit d, float* sure,
                             float* cand) {
  using Scan = cub::BlockScan<unsigned, kThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ unsigned base_sure, base_cand;
  const unsigned prefix = g_state.prefix;
  const unsigned selected = d.of(prefix);
  for_each_tile(src, count_of(n_host, n_dev), [&](const unsigned (&keys)[kItems], const bool (&valid)[kItems]) {
    unsigned n_sure = 0, n_cand = 0;
#pragma unroll
    for (int e = 0; e < kItems; ++e) {
      if (!valid[e] || !d.matches(keys[e], prefix)) continue;
      const unsigned digit = d.of(keys[e]);
      n_sure += digit > selected;
      n_cand += cand != nullptr && digit == selected;
    }
    // Both counts in one scan: at most 4096 per block each, so the low 16 bits never carry into the high ones.
    unsigned packed = (n_sure << 16) | n_cand, offset = 0, total = 0;
    Scan(scan_storage).ExclusiveSum(packed, offset, total);
    if (threadIdx.x == 0) {
      base_sure = (total >> 16) ? atomicAdd(&g_state.sure_count, total >> 16) : 0;
      base_cand = (total & 0xffffu) ? atomicAdd(&g_state.cand_count, total & 0xffffu) : 0;
    }
    __syncthreads();
    unsigned at_sure = base_sure + (offset >> 16), at_cand = base_cand + (offset & 0xffffu);
#pragma unroll
    for (int e = 0; e < kItems; ++e) {
      if (!valid[e] || !d.matches(keys[e], prefix)) continue;
      const unsigned digit = d.of(keys[e]);
      if (digit > selected) sure[at_sure++] = float_of(keys[e]);
      else if (cand != nullptr && digit == selected) cand[at_cand++] = float_of(keys[e]);
    }
    __syncthreads();  // base_sure, base_cand and the scan storage are reused by the next tile
  });
}

// output[i] = the i-th of the sorted sure list for i < k - r, then r copies of t.
__global__ void finalize_kernel(const float* sorted, float* out, unsigned k) {
  const unsigned r = g_state.remaining;
  const float t = float_of(g_state.prefix);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < k; i += gridDim.x * blockDim.x)
    out[i] = i < k - r ? sorted[i] : t;
}

unsigned grid_for(long long n, long long max_blocks = kMaxGrid) {
  const long long tiles = (n + kTile - 1) / kTile;
  return static_cast<unsigned>(std::max(1LL, std::min<long long>(tiles, max_blocks)));
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const long long n = a.scalar<int>("N");
  const unsigned k = a.scalar<int>("k");
  if (n <= 0 || k == 0) return;
  const float* x = a.input<float>("input");
  float* out = a.output<float>("output");
  static judge::ref::Scratch cand_buf(kId, "candidates"), sure_buf(kId, "sure list"),
      sure_alt_buf(kId, "sure list, alternate"), temp_buf(kId, "temp storage");
  float* cand = cand_buf.get<float>(n);
  float* sure = sure_buf.get<float>(k);
  float* sure_alt = sure_alt_buf.get<float>(k);
  unsigned* counters = nullptr;
  judge::ref::check_cuda(cudaGetSymbolAddress(reinterpret_cast<void**>(&counters), g_state), kId,
                         "cudaGetSymbolAddress(g_state)");
  const unsigned* cand_count = counters + offsetof(State, cand_count) / sizeof(unsigned);

  const Digit d0{20, 12, false}, d1{8, 12, false}, d2{0, 8, true};
  const unsigned grid = grid_for(n);
  // The candidates (all sharing t's top 12 bits) are usually a small fraction of N, and their number is known only
  // on the device: two blocks per multiprocessor loop over however many there are, and exit at once when few.
  static const int sms = judge::ref::multiprocessors(kId);
  const unsigned cand_grid = grid_for(n, 2LL * sms);
  init_kernel<<<judge::ref::grid_for(k), kThreads, 0, s>>>(k, sure, k);
  judge::ref::check_launch(kId, "init_kernel");
  // Step 2 on the input with d0, then step 3 on the candidates with d1 and d2 (their count is read on the device).
  const auto stage = [&](const float* src, long long n_host, const unsigned* n_dev, unsigned blocks, Digit d,
                         float* cand_out) {
    histogram_kernel<<<blocks, kThreads, 0, s>>>(src, n_host, n_dev, d);
    judge::ref::check_launch(kId, "histogram_kernel");
    select_kernel<<<1, kThreads, 0, s>>>(d);
    judge::ref::check_launch(kId, "select_kernel");
    split_kernel<<<blocks, kThreads, 0, s>>>(src, n_host, n_dev, d, sure, cand_out);
    judge::ref::check_launch(kId, "split_kernel");
  };
  stage(x, n, nullptr, grid, d0, cand);
  stage(cand, 0, cand_count, cand_grid, d1, nullptr);
  stage(cand, 0, cand_count, cand_grid, d2, nullptr);

  cub::DoubleBuffer<float> keys(sure, sure_alt);
  temp_buf.run_cub("cub::DeviceRadixSort::SortKeysDescending", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeysDescending(storage, bytes, keys, k, 0, 32, s);
  });
  finalize_kernel<<<judge::ref::grid_for(k), kThreads, 0, s>>>(keys.Current(), out, k);
  judge::ref::check_launch(kId, "finalize_kernel");
}

}  // namespace legacy

// ---------------------------------------------------------------------------------------------------------------
// fast: one cooperative kernel, k <= kMaxK.
namespace fast {

constexpr int kThreads = 512;
constexpr int kWarps = kThreads / 32;
constexpr long long kSampleTile = kThreads * 8;  // the sample: the first 4096 elements of each block's chunk
constexpr long long kMainTile = kThreads * 16;   // 4 float4 per thread per step
constexpr unsigned kCap = 16384;                 // candidate list; also bounds the published sample maxima
constexpr unsigned kMaxK = 4096;                 // the sort buffer: fewer than k keys lie above the k-th largest
constexpr std::size_t kDynSmem = (kCap + kMaxK) * sizeof(unsigned);
constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned kKeyNegInf = 0x007fffffu;  // key_of(-inf); keys below it are NaN patterns
constexpr unsigned long long kSpinLimitNs = 10ull * 1000 * 1000 * 1000;

// Grid-wide state. Zero at module load; every call leaves count and cand_count at 0 again.
struct State {
  unsigned count;       // arrivals at the current barrier
  unsigned gen;         // barrier generation, bumped by the last arrival when it releases the others
  unsigned tkey;        // the threshold of step 2
  unsigned decision;    // 1: the fast path succeeded; 2: run the exact fallback
  unsigned cand_count;  // appends to the candidate list (may exceed kCap: overflow)
  unsigned prefix;      // fallback: the bits of T decided so far
  unsigned remaining;   // fallback: how many of the k largest are still to be found among keys matching prefix
  unsigned hist[2048];  // fallback: the global histogram of one digit
};
__device__ State g_fast;

struct Params {
  const float* x;
  float* out;
  unsigned* cand;  // kCap keys: the published sample maxima, then the candidate list
  long long n;
  long long chunk;  // elements per block, a multiple of 4
  unsigned k;
  unsigned r;  // rank of t among the published sample maxima
  unsigned w;  // sample maxima published per warp (a power of two <= 32)
  int aligned;
};

struct Shared {
  unsigned hist[2048];
  unsigned lo[kWarps];
  unsigned hi[kWarps];
  unsigned gen;
  unsigned last;
  unsigned bin;
  unsigned above;
  unsigned count;
  unsigned total;
};

__device__ __forceinline__ unsigned warp_max(unsigned v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(kFull, v, o));
  return v;
}
__device__ __forceinline__ unsigned warp_min(unsigned v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(kFull, v, o));
  return v;
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Grid barrier, in two halves so that the last block to arrive can work while the others wait:
//   if (arrive(sh)) { ...work of the last block...; release(sh); } else { wait_release(sh); }
// Every block of the grid must call arrive the same number of times (cooperative launch: all are resident).
__device__ __forceinline__ bool arrive(Shared& sh) {
  __syncthreads();
  if (threadIdx.x == 0) {
    // The generation cannot change before this block arrives; the fence keeps this read before the arrival.
    const unsigned gen = *static_cast<volatile unsigned*>(&g_fast.gen);
    __threadfence();  // this block's writes (after the barrier above) before its arrival
    const unsigned old = atomicAdd(&g_fast.count, 1u);
    __threadfence();  // the last arrival sees every block's writes
    sh.gen = gen;
    sh.last = old == gridDim.x - 1;
  }
  __syncthreads();
  return sh.last != 0;
}
__device__ __forceinline__ void release(Shared& sh) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicExch(&g_fast.count, 0u);
    __threadfence();
    atomicExch(&g_fast.gen, sh.gen + 1);
  }
}
__device__ __forceinline__ void wait_release(Shared& sh) {
  if (threadIdx.x == 0) {
    const unsigned long long t0 = global_ns();
    while (*static_cast<volatile unsigned*>(&g_fast.gen) == sh.gen) {
      __nanosleep(64);
      if (global_ns() - t0 > kSpinLimitNs) __trap();  // a broken barrier: fail loudly instead of hanging the judge
    }
    __threadfence();
  }
  __syncthreads();
}

// 4 * Q elements of this thread from the tile at base: float4 q covers base + (q * kThreads + thread) * 4. NaN (never
// an input value, and false in every comparison) past end.
template <int Q>
__device__ __forceinline__ void load_items(const float* x, long long base, long long end, bool aligned,
                                           float (&v)[4 * Q]) {
  const float nan = __uint_as_float(0x7fffffffu);
  if (aligned && base + static_cast<long long>(Q) * kThreads * 4 <= end) {  // a whole tile: no checks
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const float4 f = __ldg(reinterpret_cast<const float4*>(x + base) + q * kThreads + threadIdx.x);
      v[4 * q] = f.x;
      v[4 * q + 1] = f.y;
      v[4 * q + 2] = f.z;
      v[4 * q + 3] = f.w;
    }
    return;
  }
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const long long o = base + (static_cast<long long>(q) * kThreads + threadIdx.x) * 4;
    if (aligned && o + 4 <= end) {
      const float4 f = __ldg(reinterpret_cast<const float4*>(x + o));
      v[4 * q] = f.x;
      v[4 * q + 1] = f.y;
      v[4 * q + 2] = f.z;
      v[4 * q + 3] = f.w;
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) v[4 * q + e] = o + e < end ? __ldg(x + o + e) : nan;
    }
  }
}

// Appends key_of(v[e]) for every set bit e of mask (per thread) to the candidate list: one atomic per warp and slot
// that has hits. Sets stop (warp-uniform) when the list overflowed. Whole warps only.
template <int N>
__device__ __forceinline__ void append(const float (&v)[N], unsigned mask, unsigned* cand, bool& stop) {
  if (!__any_sync(kFull, mask != 0)) return;
  const unsigned lane = threadIdx.x & 31;
  const unsigned below = (1u << lane) - 1;
#pragma unroll
  for (int e = 0; e < N; ++e) {
    const bool hit = (mask >> e) & 1u;
    const unsigned ballot = __ballot_sync(kFull, hit);
    if (ballot == 0) continue;
    const int leader = __ffs(ballot) - 1;
    unsigned base = 0;
    if (static_cast<int>(lane) == leader) base = atomicAdd(&g_fast.cand_count, static_cast<unsigned>(__popc(ballot)));
    base = __shfl_sync(kFull, base, leader);
    if (hit) {
      const unsigned at = base + __popc(ballot & below);
      if (at < kCap) cand[at] = key_of(v[e]);
    }
    if (base + __popc(ballot) > kCap) stop = true;
  }
}

// h[digit] += 1 for every lane with on, one shared atomic per distinct digit of the warp. Whole warps only.
__device__ __forceinline__ void aggregated_add(unsigned* h, unsigned digit, bool on) {
  const unsigned ballot = __ballot_sync(kFull, on);
  if (!on) return;
  const unsigned peers = __match_any_sync(ballot, digit);
  if (static_cast<int>(threadIdx.x & 31) == __ffs(peers) - 1)
    atomicAdd(&h[digit], static_cast<unsigned>(__popc(peers)));
}

// Warp 0 only. The bin b of h[0, nbins) (nbins a multiple of 32) where the count of higher bins `above` satisfies
// above < remaining <= above + h[b], into sh.bin and sh.above. Requires 1 <= remaining <= the sum of h.
__device__ void find_bin(const unsigned* h, unsigned nbins, unsigned remaining, Shared& sh) {
  const unsigned lane = threadIdx.x & 31, per = nbins / 32, lo = lane * per;
  unsigned mine = 0;
  for (unsigned b = lo; b < lo + per; ++b) mine += h[b];
  unsigned suffix = mine;  // becomes the sum over lanes >= this one
#pragma unroll
  for (unsigned o = 1; o < 32; o <<= 1) {
    const unsigned y = __shfl_down_sync(kFull, suffix, o);
    if (lane + o < 32) suffix += y;
  }
  unsigned above = suffix - mine;
  for (unsigned b = lo + per; b-- > lo;) {
    const unsigned hb = h[b];
    if (above < remaining && above + hb >= remaining) {
      sh.bin = b;
      sh.above = above;
    }
    above += hb;
  }
}

struct Selected {
  unsigned t;    // the r-th largest key
  unsigned rem;  // how many copies of t the r largest hold (r minus the keys above t), >= 1
};

// The r-th largest of keys[0, n) in shared memory, 1 <= r <= n; every thread of the block calls it. MSD radix select
// with 8-bit digits, starting below the bits that the smallest and largest key share.
__device__ Selected block_select(const unsigned* keys, unsigned n, unsigned r, Shared& sh) {
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  unsigned lo = 0xffffffffu, hi = 0;
  for (unsigned i = tid; i < n; i += kThreads) {
    lo = min(lo, keys[i]);
    hi = max(hi, keys[i]);
  }
  lo = warp_min(lo);
  hi = warp_max(hi);
  if (lane == 0) {
    sh.lo[warp] = lo;
    sh.hi[warp] = hi;
  }
  __syncthreads();
  lo = sh.lo[0];
  hi = sh.hi[0];
  for (int w = 1; w < kWarps; ++w) {
    lo = min(lo, sh.lo[w]);
    hi = max(hi, sh.hi[w]);
  }
  __syncthreads();
  if (lo == hi) return {hi, r};
  unsigned pos = 32 - __clz(lo ^ hi);  // bits [0, pos) are undecided; all keys share the bits above
  unsigned prefix = pos == 32 ? 0u : (hi >> pos) << pos;
  unsigned remaining = r;
  while (pos > 0) {
    const unsigned d = min(8u, pos), shift = pos - d, dmask = (1u << d) - 1;
    for (unsigned b = tid; b < 256; b += kThreads) sh.hist[b] = 0;
    __syncthreads();
    for (unsigned base = 0; base < n; base += kThreads) {
      const unsigned i = base + tid;
      bool on = false;
      unsigned digit = 0;
      if (i < n) {
        const unsigned x = keys[i];
        on = pos == 32 || (x >> pos) == (prefix >> pos);
        digit = (x >> shift) & dmask;
      }
      aggregated_add(sh.hist, digit, on);
    }
    __syncthreads();
    if (warp == 0) find_bin(sh.hist, 256, remaining, sh);
    __syncthreads();
    prefix |= sh.bin << shift;
    remaining -= sh.above;
    pos = shift;
    __syncthreads();
  }
  return {prefix, remaining};
}

// buf[0, above) holds the keys above t (above < kMaxK); every thread of the block calls it. Sorts them descending
// (bitonic, padded with key 0 to a power of two) and writes out[0, k): those keys, then copies of t.
__device__ void sort_and_write(unsigned* buf, unsigned above, unsigned t, unsigned k, float* out) {
  const unsigned tid = threadIdx.x;
  unsigned n = 1;
  while (n < above) n <<= 1;
  for (unsigned i = above + tid; i < n; i += kThreads) buf[i] = 0;
  __syncthreads();
  for (unsigned size = 2; size <= n; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      for (unsigned i = tid; i < n / 2; i += kThreads) {
        const unsigned a_at = 2 * i - (i & (stride - 1)), b_at = a_at + stride;
        const unsigned a = buf[a_at], b = buf[b_at];
        const bool descending = (a_at & size) == 0;
        if (descending ? a < b : a > b) {
          buf[a_at] = b;
          buf[b_at] = a;
        }
      }
      __syncthreads();
    }
  }
  const float tv = float_of(t);
  for (unsigned i = tid; i < k; i += kThreads) out[i] = i < above ? float_of(buf[i]) : tv;
}

// Step 3, in the last block: cand[0, m) holds every input >= t, k <= m <= kCap.
__device__ void finish(const Params& p, unsigned m, unsigned* keys, unsigned* sorted, Shared& sh) {
  const unsigned tid = threadIdx.x, lane = tid & 31;
  for (unsigned i = tid; i < m; i += kThreads) keys[i] = __ldcg(p.cand + i);
  if (tid == 0) sh.count = 0;
  __syncthreads();
  const Selected s = block_select(keys, m, p.k, sh);
  for (unsigned base = 0; base < m; base += kThreads) {
    const unsigned i = base + tid;
    const unsigned x = i < m ? keys[i] : 0u;
    const bool hit = i < m && x > s.t;
    const unsigned ballot = __ballot_sync(kFull, hit);
    if (ballot == 0) continue;
    const int leader = __ffs(ballot) - 1;
    unsigned at = 0;
    if (static_cast<int>(lane) == leader) at = atomicAdd(&sh.count, static_cast<unsigned>(__popc(ballot)));
    at = __shfl_sync(kFull, at, leader);
    if (hit) sorted[at + __popc(ballot & ((1u << lane) - 1))] = x;
  }
  __syncthreads();
  sort_and_write(sorted, p.k - s.rem, s.t, p.k, p.out);
}

// Step 4, every block: exact radix select over the whole input, then the keys above T collected and sorted.
__device__ void fallback(const Params& p, long long c0, long long c1, unsigned* sorted, Shared& sh) {
  const unsigned tid = threadIdx.x, warp = tid >> 5;
  const bool aligned = p.aligned != 0;
  unsigned prefix = 0, remaining = p.k;
  for (int pass = 0; pass < 3; ++pass) {
    const unsigned shift = pass == 0 ? 21u : pass == 1 ? 10u : 0u;
    const unsigned bits = pass == 2 ? 10u : 11u;
    const unsigned top = shift + bits;  // 32, 21, 10: keys must match prefix above this bit
    const unsigned nbins = 1u << bits;
    for (unsigned b = tid; b < nbins; b += kThreads) sh.hist[b] = 0;
    __syncthreads();
    for (long long base = c0; base < c1; base += kMainTile) {
      float v[16];
      load_items<4>(p.x, base, c1, aligned, v);
#pragma unroll
      for (int e = 0; e < 16; ++e) {
        const unsigned x = key_of(v[e]);
        const bool on = v[e] == v[e] && (top == 32 || (x >> top) == (prefix >> top));
        aggregated_add(sh.hist, (x >> shift) & (nbins - 1), on);
      }
    }
    __syncthreads();
    for (unsigned b = tid; b < nbins; b += kThreads)
      if (sh.hist[b]) atomicAdd(&g_fast.hist[b], sh.hist[b]);
    if (arrive(sh)) {
      for (unsigned b = tid; b < nbins; b += kThreads) {
        sh.hist[b] = __ldcg(&g_fast.hist[b]);
        g_fast.hist[b] = 0;
      }
      __syncthreads();
      if (warp == 0) find_bin(sh.hist, nbins, remaining, sh);
      __syncthreads();
      prefix |= sh.bin << shift;
      remaining -= sh.above;
      if (tid == 0) {
        g_fast.prefix = prefix;
        g_fast.remaining = remaining;
      }
      release(sh);
    } else {
      wait_release(sh);
      prefix = __ldcg(&g_fast.prefix);
      remaining = __ldcg(&g_fast.remaining);
    }
  }
  // prefix is T, the k-th largest key; the answer holds `remaining` copies of it and the k - remaining keys above.
  const unsigned above = p.k - remaining;
  if (above > 0) {
    bool stop = false;  // cannot overflow: above < kMaxK <= kCap
    for (long long base = c0; base < c1; base += kMainTile) {
      float v[16];
      load_items<4>(p.x, base, c1, aligned, v);
      unsigned mask = 0;
#pragma unroll
      for (int e = 0; e < 16; ++e) mask |= (v[e] == v[e] && key_of(v[e]) > prefix ? 1u : 0u) << e;
      append(v, mask, p.cand, stop);
    }
  }
  if (arrive(sh)) {
    for (unsigned i = tid; i < above; i += kThreads) sorted[i] = __ldcg(p.cand + i);
    if (tid == 0) g_fast.cand_count = 0;
    release(sh);  // nobody waits for it; it keeps the barrier's count and generation in step
    __syncthreads();
    sort_and_write(sorted, above, prefix, p.k, p.out);
  }
}

__global__ void __launch_bounds__(kThreads, 2) topk_kernel(Params p) {
  extern __shared__ unsigned dyn[];
  __shared__ Shared sh;
  unsigned* keys = dyn;          // kCap keys
  unsigned* sorted = dyn + kCap;  // kMaxK keys
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const bool aligned = p.aligned != 0;
  const long long c0 = static_cast<long long>(blockIdx.x) * p.chunk;
  const long long c1 = min(c0 + p.chunk, p.n);
  const long long sample_end = min(c0 + kSampleTile, c1);

  // Step 1: the sample, its thread maxima, the top w of them per warp.
  float sv[8];
  load_items<2>(p.x, c0, sample_end, aligned, sv);
  unsigned kmax = 0;  // below every key of a number: "no element"
#pragma unroll
  for (int e = 0; e < 8; ++e)
    if (sv[e] == sv[e]) kmax = max(kmax, key_of(sv[e]));
  const unsigned gw = blockIdx.x * kWarps + warp;
  if (p.w == 1) {
    kmax = warp_max(kmax);
    if (lane == 0) p.cand[gw] = kmax;
  } else {
    // Bitonic sort of the 32 maxima across the lanes, descending: lane i holds the i-th largest.
#pragma unroll
    for (unsigned size = 2; size <= 32; size <<= 1) {
#pragma unroll
      for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
        const unsigned other = __shfl_xor_sync(kFull, kmax, stride);
        const bool descending = (lane & size) == 0, lower = (lane & stride) == 0;
        kmax = descending == lower ? max(kmax, other) : min(kmax, other);
      }
    }
    if (lane < p.w) p.cand[gw * p.w + lane] = kmax;
  }
  const bool last = arrive(sh);
  // The first tile of the pass, loaded while the last block picks t.
  long long base = sample_end;
  float cur[16];
  load_items<4>(p.x, base, c1, aligned, cur);
  unsigned tkey;
  if (last) {
    const unsigned published = gridDim.x * kWarps * p.w;
    tkey = 0;
    if (p.r <= published) {
      for (unsigned i = tid; i < published; i += kThreads) keys[i] = __ldcg(p.cand + i);
      __syncthreads();
      tkey = block_select(keys, published, p.r, sh).t;
    }
    if (tid == 0) g_fast.tkey = tkey;
    release(sh);
  } else {
    wait_release(sh);
    tkey = __ldcg(&g_fast.tkey);
  }
  const float t = tkey <= kKeyNegInf ? -INFINITY : float_of(tkey);

  // Step 2: every element >= t to the candidate list.
  bool stop = false;
  {
    unsigned mask = 0;
#pragma unroll
    for (int e = 0; e < 8; ++e) mask |= (sv[e] >= t ? 1u : 0u) << e;
    append(sv, mask, p.cand, stop);
  }
  // No register double buffering: 32 warps per multiprocessor with 2 KiB in flight each cover the latency.
  while (base < c1 && !stop) {
    unsigned mask = 0;
#pragma unroll
    for (int e = 0; e < 16; ++e) mask |= (cur[e] >= t ? 1u : 0u) << e;
    append(cur, mask, p.cand, stop);
    base += kMainTile;
    if (base < c1) load_items<4>(p.x, base, c1, aligned, cur);
  }

  // Step 3 or 4.
  if (arrive(sh)) {
    if (tid == 0) {  // one thread reads and resets the count; the others get it through shared memory
      const unsigned count = __ldcg(&g_fast.cand_count);
      sh.total = count;
      g_fast.decision = count >= p.k && count <= kCap ? 1u : 2u;
      g_fast.cand_count = 0;
    }
    release(sh);  // starts with a barrier
    const unsigned m = sh.total;  // sh.total is written only here
    if (m >= p.k && m <= kCap) {
      finish(p, m, keys, sorted, sh);
      return;
    }
  } else {
    wait_release(sh);
    if (__ldcg(&g_fast.decision) == 1u) return;
  }
  fallback(p, c0, c1, sorted, sh);
}

// Resident blocks of topk_kernel (one wave), or 0 where this device cannot run it (then legacy serves every call).
unsigned resident_blocks() {
  int device = 0, coop = 0, optin = 0, sms = 0, per_sm = 0;
  judge::ref::check_cuda(cudaGetDevice(&device), kId, "cudaGetDevice");
  judge::ref::check_cuda(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device), kId,
                         "cudaDeviceGetAttribute(CooperativeLaunch)");
  judge::ref::check_cuda(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), kId,
                         "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
  if (!coop || static_cast<std::size_t>(optin) < kDynSmem + sizeof(Shared)) return 0;
  judge::ref::check_cuda(cudaFuncSetAttribute(topk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(kDynSmem)),
                         kId, "cudaFuncSetAttribute(topk_kernel, MaxDynamicSharedMemorySize)");
  judge::ref::check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), kId,
                         "cudaDeviceGetAttribute(MultiProcessorCount)");
  judge::ref::check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, topk_kernel, kThreads, kDynSmem), kId,
                         "cudaOccupancyMaxActiveBlocksPerMultiprocessor(topk_kernel)");
  return static_cast<unsigned>(std::max(0, sms * per_sm));
}

// Returns false (nothing launched) where the device cannot run the kernel.
bool gpu(const float* x, float* out, long long n, unsigned k, cudaStream_t s) {
  static const unsigned resident = resident_blocks();
  if (resident == 0 || k > kMaxK) return false;
  static judge::ref::Scratch cand_buf(kId, "candidate list");
  unsigned* cand = cand_buf.get<unsigned>(kCap);

  // Grid and chunks: at least kMainTile elements per block, one wave at most, at most kCap / 16 warps publishing.
  long long grid = std::min<long long>({static_cast<long long>(resident), (n + kMainTile - 1) / kMainTile,
                                        static_cast<long long>(kCap / kWarps)});
  grid = std::max(grid, 1LL);
  const long long chunk = ((n + grid - 1) / grid + 3) / 4 * 4;
  grid = (n + chunk - 1) / chunk;  // every block has elements
  const long long last_len = n - (grid - 1) * chunk;
  const long long sampled = (grid - 1) * std::min(chunk, kSampleTile) + std::min(last_len, kSampleTile);

  unsigned r = k;
  if (sampled < n) {
    const double q = static_cast<double>(k) * static_cast<double>(sampled) / static_cast<double>(n);
    r = static_cast<unsigned>(std::min<double>(k, std::ceil(q + 6.0 * std::sqrt(q) + 8.0)));
  }
  const unsigned long long warps = static_cast<unsigned long long>(grid) * kWarps;
  unsigned w = 1;
  while (w < 32 && warps * w < 4ull * r && warps * w * 2 <= kCap) w *= 2;

  Params p{x, out, cand, n, chunk, k, r, w, judge::ref::aligned16(x) ? 1 : 0};
  judge::ref::launch_cooperative(kId, "topk_kernel", topk_kernel, static_cast<unsigned>(grid), kThreads, kDynSmem, s,
                                 p);
  return true;
}

}  // namespace fast

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const long long n = a.scalar<int>("N");
  const long long k = a.scalar<int>("k");
  if (n <= 0 || k <= 0) return;
  const float* x = a.input<float>("input");
  float* out = a.output<float>("output");
  if (!fast::gpu(x, out, n, static_cast<unsigned>(k), s)) legacy::gpu(a, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const std::int64_t k = a.scalar<int>("k");
  const float* x = a.input<float>("input");
  std::vector<float> v(x, x + n);
  std::partial_sort(v.begin(), v.begin() + k, v.end(), std::greater<float>());
  double* y = a.output("output");
  for (std::int64_t i = 0; i < k; ++i) y[i] = v[i];
}

}  // namespace

JUDGE_REFERENCE(top_k_selection, gpu, cpu)
