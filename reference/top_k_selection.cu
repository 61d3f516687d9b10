// Reference for challenges/top_k_selection: output = the k largest inputs, in descending order. Radix select, so the
// input is read twice whatever k is, instead of sorting all N values:
//
//   1. Each float becomes an unsigned key that orders like the value (flip every bit of a negative number, only the
//      sign bit of the others). Let t be the key of the k-th largest input.
//   2. Histogram of the top 12 bits of every key; the bin holding t is the one where the count of larger bins drops
//      below k. Then one pass sends keys in larger bins to the "sure" list (they are in the answer) and keys in t's
//      bin to a candidate list (usually a small fraction of N).
//   3. The same on the candidates for the next 12 bits, then for the last 8: t is then known exactly, along with r,
//      how many copies of t the answer holds (ties included).
//   4. The sure list (every input above t: exactly k - r of them, padded to k with -inf) is sorted descending with
//      CUB, and its padding is replaced by r copies of t.
//
// Everything stays on the device (counts included), so no synchronisation with the host; counts use integer
// atomics and the result is deterministic. Inputs are never NaN. On an H200 the whole select takes about 0.24 ms for
// N = 5e7 (one read of the input alone takes 0.05 ms, the histogram pass 0.07 ms).
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

__device__ __forceinline__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float float_of(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

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
  const long long n = count_of(n_host, n_dev);
  const unsigned prefix = g_state.prefix;
  const bool aligned = judge::ref::aligned16(src);
  for (long long base = static_cast<long long>(blockIdx.x) * kTile; base < n;
       base += static_cast<long long>(gridDim.x) * kTile) {
    unsigned keys[kItems];
    bool valid[kItems];
    load_tile(src, n, base, aligned, keys, valid);
#pragma unroll
    for (int e = 0; e < kItems; ++e)
      if (valid[e] && d.matches(keys[e], prefix)) atomicAdd(&h[d.of(keys[e])], 1u);
  }
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
  const long long n = count_of(n_host, n_dev);
  const unsigned prefix = g_state.prefix;
  const unsigned selected = d.of(prefix);
  const bool aligned = judge::ref::aligned16(src);
  for (long long base = static_cast<long long>(blockIdx.x) * kTile; base < n;
       base += static_cast<long long>(gridDim.x) * kTile) {
    unsigned keys[kItems];
    bool valid[kItems];
    load_tile(src, n, base, aligned, keys, valid);
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
  }
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
