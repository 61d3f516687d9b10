// Reference for challenges/segmented_prefix_sum: output[i] = sum of values[j] for start(i) <= j < i, where start(i)
// is the last index <= i with flags[start(i)] = 1 (flags[0] = 1 always): an exclusive scan restarted at every flag.
// Accumulated in double and rounded once to float per element, as LeetGPU's reference does (it takes a float64 global
// exclusive scan and subtracts its value at each segment start; the two agree to within double rounding).
//
// One pass over memory, the single-pass scan with decoupled look-back of reference/prefix_sum.cu (Merrill & Garland
// 2016) on pairs: each block takes the next tile of 4096 elements in the order blocks start (a ticket from an atomic
// counter, so a tile only ever waits for tiles whose blocks are already running), scans it in double, publishes, and
// looks back over the tiles before it, 32 at a time, until it meets one that has published its inclusive prefix. A
// pair (f, s) says whether a flag was seen (f) and the sum since the last flag, or of everything if none (s); a pair
// a followed by b combines to (b.f ? b.s : a.s + b.s, a.f | b.f). What segments add to the plain scan:
//   - a tile that holds a flag publishes its inclusive prefix at once: the sum after its last flag needs nothing
//     from earlier tiles, so a look-back stops there, and no chain of waiting ever runs through a flag;
//   - a tile whose first element is flagged skips the look-back; others add the carry only to the elements before
//     their first flag.
// Each value and flag is read once and each output written once, with 16-byte loads and stores coalesced through
// swizzled shared-memory tiles; a thread keeps its 16 flags as a bit mask. (CUB's scan by key, with the flags as
// keys, would do the same work, but CUB's scans with a double accumulator reach about 63% of copy bandwidth on an
// H100: see docs/references.md on prefix_sum.)
//
// Tile states live in scratch memory tagged with a per-call epoch, so nothing has to be cleared between calls: a
// flag from an earlier call reads as "not yet published". The look-back may add tile totals in a different order
// from run to run; in double that changes an output by about 1e-16 of the partial sums, which survives the rounding
// to float only in the rare exact-tie case.
//
// Also the generator "segment_flags" (below), which draws the flags of the tests and benchmarks.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "segmented_prefix_sum";

constexpr int kThreads = 256;
constexpr int kItems = 16;                // elements per thread, contiguous
constexpr int kTile = kThreads * kItems;  // elements per tile
constexpr int kTileVec = kTile / 4;       // float4 (or int4) per tile
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;

constexpr unsigned kAggregate = 1;  // the tile's own total is published (only tiles without a flag do this)
constexpr unsigned kPrefix = 2;     // the sum since the last flag up to the tile's end is published

// Per-tile look-back state, and the ticket counter. flag = (epoch << 2) | status.
struct TileState {
  unsigned* flag;
  double* aggregate;
  double* inclusive;
  unsigned* ticket;
};

// f: a flag was seen; s: the sum since the last flag (of everything, if none).
struct Seg {
  double s;
  int f;
};

// a, then b.
__device__ __forceinline__ Seg combine(Seg a, Seg b) { return Seg{b.f ? b.s : a.s + b.s, a.f | b.f}; }

// Position of 16-byte element e of a tile in shared memory. Threads store element j*256 + t (striped, coalesced with
// global memory) and read element 4t + k (their own 16 contiguous values); rotating each group of 8 by e/8 puts the
// 8 threads of every quarter-warp on 8 different 16-byte bank groups in both patterns.
__device__ __forceinline__ int swizzle(int e) { return (e & ~7) | ((e + (e >> 3)) & 7); }

__device__ __forceinline__ unsigned load_flag(const unsigned* p) {
  return *static_cast<const volatile unsigned*>(p);
}

__device__ __forceinline__ double warp_sum(double v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(kFull, v, o);
  return v;
}

// The sum carried into `tile` (since the last flag before it), by warp 0 of the block: lane l watches tile
// (window - 1 - l). Tiles publishing only an aggregate hold no flag, so their whole total is carried.
__device__ double look_back(const TileState st, int tile, unsigned epoch) {
  const int lane = threadIdx.x;
  double prefix = 0.0;
  int window = tile;  // tiles [0, window) are still to be accounted for
  while (true) {
    const int pred = window - 1 - lane;
    // Lanes past tile 0 count as a published prefix of 0. The warp spins until each lane's tile has published.
    unsigned f = (epoch << 2) | kPrefix;
    do {
      if (pred >= 0) f = load_flag(st.flag + pred);
    } while (__any_sync(kFull, (f >> 2) != epoch));
    __threadfence();
    const unsigned status = f & 3u;
    double value = 0.0;
    if (pred >= 0) {
      value = status == kPrefix ? *static_cast<const volatile double*>(st.inclusive + pred)
                                : *static_cast<const volatile double*>(st.aggregate + pred);
    }
    // The nearest predecessor with a published prefix ends the walk: sum the lanes up to and including it.
    const unsigned prefixes = __ballot_sync(kFull, status == kPrefix);
    if (prefixes != 0) {
      const int stop = __ffs(prefixes) - 1;
      return prefix + warp_sum(lane <= stop ? value : 0.0);
    }
    prefix += warp_sum(value);
    window -= 32;
  }
}

__device__ __forceinline__ void publish(const TileState st, double* slot, int tile, double value, unsigned status,
                                        unsigned epoch) {
  *slot = value;
  __threadfence();
  atomicExch(st.flag + tile, (epoch << 2) | status);
}

__global__ void __launch_bounds__(kThreads, 4)
    scan_kernel(const float* __restrict__ values, const int* __restrict__ flags, float* __restrict__ out,
                std::int64_t n, int tiles, TileState st, unsigned epoch, bool vector_io) {
  __shared__ float4 vbuf[kTileVec];
  __shared__ int4 fbuf[kTileVec];
  __shared__ double warp_s[kWarps];
  __shared__ int warp_f[kWarps];
  __shared__ double tile_prefix;
  __shared__ int tile_id;

  const int t = threadIdx.x;
  if (t == 0) {
    const unsigned ticket = atomicAdd(st.ticket, 1u);
    // The block holding the last ticket is the last to touch the counter in this call: reset it for the next.
    if (ticket == static_cast<unsigned>(tiles - 1)) atomicExch(st.ticket, 0u);
    tile_id = static_cast<int>(ticket);
  }
  __syncthreads();
  const int tile = tile_id;
  const std::int64_t base = static_cast<std::int64_t>(tile) * kTile;
  const bool full = base + kTile <= n;

  // Load the tile, striped and coalesced, into the swizzled buffers. Past n: value 0 and flag 0, which changes no
  // output before it.
  if (full && vector_io) {
    const float4* vsrc = reinterpret_cast<const float4*>(values + base);
    const int4* fsrc = reinterpret_cast<const int4*>(flags + base);
#pragma unroll
    for (int j = 0; j < kTileVec / kThreads; ++j) {
      vbuf[swizzle(j * kThreads + t)] = __ldcs(vsrc + j * kThreads + t);
      fbuf[swizzle(j * kThreads + t)] = __ldcs(fsrc + j * kThreads + t);
    }
  } else {
    float* vb = reinterpret_cast<float*>(vbuf);
    int* fb = reinterpret_cast<int*>(fbuf);
    for (int q = t; q < kTile; q += kThreads) {
      const std::int64_t i = base + q;
      const int at = swizzle(q >> 2) * 4 + (q & 3);
      vb[at] = i < n ? values[i] : 0.0f;
      fb[at] = i < n ? flags[i] : 0;
    }
  }
  __syncthreads();

  // Each thread's 16 contiguous values, its flags as bits, and its pair in double.
  float x[kItems];
  unsigned heads = 0;
#pragma unroll
  for (int k = 0; k < kItems / 4; ++k) {
    const float4 v = vbuf[swizzle(t * (kItems / 4) + k)];
    const int4 g = fbuf[swizzle(t * (kItems / 4) + k)];
    x[4 * k] = v.x;
    x[4 * k + 1] = v.y;
    x[4 * k + 2] = v.z;
    x[4 * k + 3] = v.w;
    heads |= unsigned(g.x != 0) << (4 * k) | unsigned(g.y != 0) << (4 * k + 1) | unsigned(g.z != 0) << (4 * k + 2) |
             unsigned(g.w != 0) << (4 * k + 3);
  }
  Seg mine{0.0, 0};
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    mine = (heads >> k) & 1u ? Seg{static_cast<double>(x[k]), 1} : Seg{mine.s + static_cast<double>(x[k]), mine.f};

  // Exclusive scan of the thread pairs across the block.
  const int lane = t & 31;
  const int warp = t >> 5;
  Seg incl = mine;
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    const double s = __shfl_up_sync(kFull, incl.s, o);
    const int f = __shfl_up_sync(kFull, incl.f, o);
    if (lane >= o) incl = combine(Seg{s, f}, incl);
  }
  if (lane == 31) {
    warp_s[warp] = incl.s;
    warp_f[warp] = incl.f;
  }
  const double up_s = __shfl_up_sync(kFull, incl.s, 1);
  const int up_f = __shfl_up_sync(kFull, incl.f, 1);
  __syncthreads();
  Seg before = lane == 0 ? Seg{0.0, 0} : Seg{up_s, up_f};
  Seg warps_before{0.0, 0}, aggregate{0.0, 0};
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const Seg wt{warp_s[w], warp_f[w]};
    if (w < warp) warps_before = combine(warps_before, wt);
    aggregate = combine(aggregate, wt);
  }
  before = combine(warps_before, before);

  // Publish, look back, publish the inclusive prefix (warp 0; aggregate is the same in every thread).
  if (warp == 0) {
    // The carry matters only to the elements before the tile's first flag: none if its first element is flagged.
    const bool needs_carry = tile > 0 && (__shfl_sync(kFull, heads, 0) & 1u) == 0;
    double prefix = 0.0;
    if (t == 0) {
      if (tile == 0 || aggregate.f)
        publish(st, st.inclusive + tile, tile, aggregate.s, kPrefix, epoch);
      else
        publish(st, st.aggregate + tile, tile, aggregate.s, kAggregate, epoch);
    }
    if (needs_carry) prefix = look_back(st, tile, epoch);
    if (t == 0) {
      if (tile > 0 && !aggregate.f) publish(st, st.inclusive + tile, tile, prefix + aggregate.s, kPrefix, epoch);
      tile_prefix = prefix;
    }
  }
  __syncthreads();

  // Outputs in double, each rounded once, written back into the value buffer and stored coalesced.
  double acc = before.f ? before.s : tile_prefix + before.s;
#pragma unroll
  for (int k = 0; k < kItems / 4; ++k) {
    float y[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int e = 4 * k + j;
      if ((heads >> e) & 1u) {
        y[j] = 0.0f;
        acc = static_cast<double>(x[e]);
      } else {
        y[j] = static_cast<float>(acc);
        acc += static_cast<double>(x[e]);
      }
    }
    vbuf[swizzle(t * (kItems / 4) + k)] = make_float4(y[0], y[1], y[2], y[3]);
  }
  __syncthreads();
  if (full && vector_io) {
    float4* dst = reinterpret_cast<float4*>(out + base);
#pragma unroll
    for (int j = 0; j < kTileVec / kThreads; ++j) __stcs(dst + j * kThreads + t, vbuf[swizzle(j * kThreads + t)]);
  } else {
    const float* vb = reinterpret_cast<const float*>(vbuf);
    for (int q = t; q < kTile; q += kThreads) {
      const std::int64_t i = base + q;
      if (i < n) out[i] = vb[swizzle(q >> 2) * 4 + (q & 3)];
    }
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("N");
  if (n <= 0) return;
  const float* values = a.input<float>("values");
  const int* flags = a.input<int>("flags");
  float* out = a.output<float>("output");
  const int tiles = static_cast<int>((static_cast<std::int64_t>(n) + kTile - 1) / kTile);

  // Layout of the scratch, sized for the most tiles seen so far: the ticket and the flags first, then aggregates and
  // prefixes. Flags are tagged with the epoch, so a flag left by an earlier call reads as unpublished; only a new
  // layout (more tiles than ever before) needs clearing, because its flags may lie where doubles were.
  static judge::ref::Scratch state(kId, "tile states");
  static int capacity = 0;  // tiles the cleared layout holds
  static unsigned epoch = 0;
  const bool relayout = tiles > capacity;
  if (relayout) capacity = tiles;
  const std::size_t flag_words = (static_cast<std::size_t>(capacity) + 2) & ~std::size_t{1};  // keeps doubles aligned
  const std::size_t bytes = flag_words * sizeof(unsigned) + 2 * static_cast<std::size_t>(capacity) * sizeof(double);
  char* raw = state.get<char>(bytes);
  TileState st;
  st.ticket = reinterpret_cast<unsigned*>(raw);
  st.flag = st.ticket + 1;
  st.aggregate = reinterpret_cast<double*>(raw + flag_words * sizeof(unsigned));
  st.inclusive = st.aggregate + capacity;
  if (relayout) judge::ref::check_cuda(cudaMemsetAsync(raw, 0, bytes, s), kId, "cudaMemsetAsync(tile states)");
  // Epochs are 30 bits; epoch 0 is never used, so cleared flags read as unpublished.
  epoch = (epoch + 1) & 0x3fffffffu;
  if (epoch == 0) epoch = 1;

  const bool vector_io = judge::ref::aligned16(values, flags, out);
  scan_kernel<<<tiles, kThreads, 0, s>>>(values, flags, out, n, tiles, st, epoch, vector_io);
  judge::ref::check_launch(kId, "scan_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("values");
  const int* f = a.input<int>("flags");
  double* y = a.output("output");
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (f[i] != 0) acc = 0.0;
    y[i] = acc;
    acc += static_cast<double>(x[i]);
  }
}

// "segment_flags": the flags of a segmented scan, 1 where a segment starts and 0 elsewhere, flags[0] = 1 always.
// Exactly one of two arguments: `period` (a segment starts at every multiple of period: 256 is LeetGPU's performance
// test, N gives one segment, 1 makes every element its own segment), or `mean_len` (each i > 0 starts a segment with
// probability 1 / mean_len, independently: geometric segment lengths with that mean, so some segments run several
// times longer, and where segments start has nothing to do with any tile size). low and high are not used.
struct SegmentFlags {
  double p;             // probability of a start, when period is 0
  std::int64_t period;  // 0: random starts
  std::uint64_t key;
  JUDGE_HD double operator()(std::int64_t i) const {
    if (i == 0) return 1.0;
    if (period > 0) return i % period == 0 ? 1.0 : 0.0;
    return judge::gen::unit(key, static_cast<std::uint64_t>(i)) < p ? 1.0 : 0.0;
  }
};

void segment_flags(const judge::GeneratorCall& c) {
  if (!judge::is_integer(c.dtype))
    JUDGE_THROW(judge::Error, "generator 'segment_flags' makes 0/1 flags; the buffer is {} (use int32)",
                judge::to_string(c.dtype));
  const bool has_period = c.args.count("period") > 0, has_mean = c.args.count("mean_len") > 0;
  if (has_period == has_mean)
    JUDGE_THROW(judge::Error, "generator 'segment_flags' takes exactly one of the arguments 'period' and 'mean_len'");
  if (has_period) {
    const double period = c.arg("period");
    if (!(period >= 1) || period != std::floor(period) || period > 9e15)
      JUDGE_THROW(judge::Error, "generator 'segment_flags': period = {} is not a whole number >= 1", period);
    judge::gen::fill(c, SegmentFlags{0.0, static_cast<std::int64_t>(period), c.key});
  } else {
    const double mean_len = c.arg("mean_len");
    if (!(mean_len >= 1))
      JUDGE_THROW(judge::Error, "generator 'segment_flags': mean_len = {} is below 1", mean_len);
    judge::gen::fill(c, SegmentFlags{1.0 / mean_len, 0, c.key});
  }
}

}  // namespace

JUDGE_REFERENCE(segmented_prefix_sum, gpu, cpu)
JUDGE_GENERATOR(segment_flags, segment_flags)
