// Reference for challenges/linear_recurrence: h[b, 0] = x[b, 0], h[b, t] = a[b, t] h[b, t-1] + x[b, t], every row on
// its own, in double and rounded once to float per element. Each step is the affine map h -> a h + x, and affine maps
// compose associatively ((a1, x1) then (a2, x2) is (a1 a2, a2 x1 + x2)), so the scan runs in parallel along the row.
//
// One pass, decoupled look-back (Merrill and Garland), each row on its own: a block takes a tile of kTile consecutive
// elements of one row (kItems per thread, float4 loads), composes its maps into one (in double), publishes that
// aggregate, then reads the flags of the tiles before it in the same row (at most 31: one warp reads them all) and
// composes the aggregates after the nearest one that has published its inclusive result (the row's first tile always
// does, at once), and publishes its own. Then every thread replays its elements from the carry it got. Inputs are read once and the output written once: 12 bytes an element. Tiles are
// numbered by blockIdx.x in row-major order, so a tile only ever waits on blocks launched before it (CUB's scan makes
// the same assumption). Tile flags carry a per-call epoch, so nothing needs clearing between calls. The carry reached
// through aggregates or through an inclusive value differs by double rounding only (~1e-16 relative), which survives
// the rounding to float only in a rare exact tie.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "linear_recurrence";
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kItems = 8;  // consecutive elements per thread: two float4 of a, two of x
constexpr int kTile = kThreads * kItems;
constexpr int kMaxTilesPerRow = 65536 / kTile;  // the constraints: L <= 65536, B <= 256
constexpr int kMaxTiles = 256 * kMaxTilesPerRow;
static_assert(kMaxTilesPerRow <= 32, "the look-back reads all of a row's earlier tiles with one warp");

constexpr unsigned kAggregate = 1, kInclusive = 2;  // low bits of a tile flag; the rest is the call's epoch

// Tile states of the current call. The row's carry after a tile (its inclusive value) is a single h.
__device__ unsigned g_flag[kMaxTiles];
__device__ double2 g_aggregate[kMaxTiles];
__device__ double g_inclusive[kMaxTiles];

// The affine map h -> a h + b.
struct Affine {
  double a, b;
};
__device__ inline Affine identity() { return {1.0, 0.0}; }
// l applied first, then r.
__device__ inline Affine compose(Affine l, Affine r) { return {l.a * r.a, fma(r.a, l.b, r.b)}; }
__device__ inline double apply(Affine f, double h) { return fma(f.a, h, f.b); }

__device__ inline Affine shfl_up(Affine f, int delta) {
  return {__shfl_up_sync(0xffffffffu, f.a, delta), __shfl_up_sync(0xffffffffu, f.b, delta)};
}

__device__ inline void publish(int tile, unsigned flag) {
  __threadfence();  // the value stored before is visible device-wide before the flag is
  *reinterpret_cast<volatile unsigned*>(&g_flag[tile]) = flag;
}

// The row's h just before tile `tile` (chunk > 0 of its row), from the tiles before it in the row; they are at most
// 31, so one warp reads all their flags at once (lane j: tile - 1 - j) and waits until each has published at least
// its aggregate. The nearest tile with an inclusive value gives the base (the row's first tile always has one), the
// aggregates of the tiles after it are composed in a shuffle tree. Called by every lane of one warp; valid in lane 0.
__device__ double look_back(int tile, int chunk, unsigned epoch) {
  const int lane = threadIdx.x % 32;
  const int p = tile - 1 - lane;
  const bool valid = lane < chunk;  // p is in this row
  unsigned f = 0;
  if (valid) {
    do {
      f = *reinterpret_cast<volatile unsigned*>(&g_flag[p]);
    } while ((f & ~3u) != epoch);
  }
  __threadfence();
  const unsigned inclusive = __ballot_sync(0xffffffffu, valid && (f & kInclusive));
  const int nearest = __ffs(inclusive) - 1;  // lane chunk - 1 (the row's first tile) is inclusive: never -1
  Affine mine = identity();
  double base = 0.0;
  if (lane < nearest) {
    const double2 agg = __ldcg(&g_aggregate[p]);
    mine = Affine{agg.x, agg.y};
  } else if (lane == nearest) {
    base = __ldcg(&g_inclusive[p]);
  }
  // Higher lanes hold earlier tiles: lane 0 ends with the composition of lanes 0 .. nearest - 1, earliest first.
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const Affine earlier = {__shfl_down_sync(0xffffffffu, mine.a, d), __shfl_down_sync(0xffffffffu, mine.b, d)};
    if (lane + d < 32) mine = compose(earlier, mine);
  }
  base = __shfl_sync(0xffffffffu, base, nearest);
  return apply(mine, base);
}

// 4 blocks an SM (64 registers, a few bytes spilled around the look-back) keep 64 KB of loads in flight per SM.
template <bool kVec>
__global__ void __launch_bounds__(kThreads, 4) scan_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                                        float* __restrict__ h, int L, int tiles_per_row,
                                                        unsigned epoch) {
  __shared__ Affine warp_total[kWarps];
  __shared__ double carry_in;
  const int tile = blockIdx.x;
  const int row = tile / tiles_per_row;
  const int chunk = tile % tiles_per_row;
  const std::int64_t row_base = static_cast<std::int64_t>(row) * L;
  const int first = chunk * kTile + threadIdx.x * kItems;  // this thread's first element within the row
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // Elements past the row's end are the identity map (a = 1, x = 0) and are not stored.
  float av[kItems], xv[kItems];
  if constexpr (kVec) {  // L % 4 == 0 and 16-byte aligned arrays: every group of 4 is wholly inside or outside
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) {
      const int e = first + 4 * g;
      float4 qa = make_float4(1.f, 1.f, 1.f, 1.f), qx = make_float4(0.f, 0.f, 0.f, 0.f);
      if (e < L) {
        qa = __ldcs(reinterpret_cast<const float4*>(a + row_base + e));
        qx = __ldcs(reinterpret_cast<const float4*>(x + row_base + e));
      }
      av[4 * g] = qa.x, av[4 * g + 1] = qa.y, av[4 * g + 2] = qa.z, av[4 * g + 3] = qa.w;
      xv[4 * g] = qx.x, xv[4 * g + 1] = qx.y, xv[4 * g + 2] = qx.z, xv[4 * g + 3] = qx.w;
    }
  } else {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int e = first + i;
      av[i] = e < L ? __ldcs(a + row_base + e) : 1.f;
      xv[i] = e < L ? __ldcs(x + row_base + e) : 0.f;
    }
  }
  if (first == 0) av[0] = 0.f;  // h[b, 0] = x[b, 0]: a[b, 0] is not used

  // This thread's map, then the block's exclusive scan of the threads' maps (warp shuffles, then the warp totals).
  Affine own = {av[0], xv[0]};
#pragma unroll
  for (int i = 1; i < kItems; ++i) own = compose(own, Affine{av[i], xv[i]});
  Affine inc = own;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const Affine up = shfl_up(inc, d);
    if (lane >= d) inc = compose(up, inc);
  }
  if (lane == 31) warp_total[warp] = inc;
  Affine exc = shfl_up(inc, 1);
  if (lane == 0) exc = identity();
  __syncthreads();

  // Warp 0: the tile's total, then the carry into the tile (the row's h just before its first element). Only later
  // tiles of the same row read a tile's flag, so the row's last tile publishes nothing and its first publishes its
  // inclusive value at once.
  if (warp == 0) {
    Affine total = identity();
    if (lane == 0) {
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {  // in place: warp_total becomes the exclusive scan of the warp totals
        const Affine t = warp_total[w];
        warp_total[w] = total;
        total = compose(total, t);
      }
    }
    const bool last = chunk + 1 == tiles_per_row;
    if (chunk > 0 && !last && lane == 0) {
      __stcg(&g_aggregate[tile], make_double2(total.a, total.b));
      publish(tile, epoch | kAggregate);
    }
    const double c = chunk > 0 ? look_back(tile, chunk, epoch) : 0.0;
    if (lane == 0) {
      if (!last) {
        __stcg(&g_inclusive[tile], apply(total, c));
        publish(tile, epoch | kInclusive);
      }
      carry_in = c;
    }
  }
  __syncthreads();

  double v = apply(exc, apply(warp_total[warp], carry_in));
  float out[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    v = fma(static_cast<double>(av[i]), v, static_cast<double>(xv[i]));
    out[i] = static_cast<float>(v);
  }
  if constexpr (kVec) {
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) {
      const int e = first + 4 * g;
      if (e < L)
        __stcs(reinterpret_cast<float4*>(h + row_base + e),
               make_float4(out[4 * g], out[4 * g + 1], out[4 * g + 2], out[4 * g + 3]));
    }
  } else {
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      if (first + i < L) h[row_base + first + i] = out[i];
  }
}

void gpu(const judge::DeviceArgs& args, cudaStream_t s) {
  const int B = args.scalar<int>("B");
  const int L = args.scalar<int>("L");
  if (B <= 0 || L <= 0) return;
  const float* a = args.input<float>("a");
  const float* x = args.input<float>("x");
  float* h = args.output<float>("h");
  const int tiles_per_row = (L + kTile - 1) / kTile;
  const std::int64_t tiles = static_cast<std::int64_t>(B) * tiles_per_row;
  if (tiles_per_row > kMaxTilesPerRow || tiles > kMaxTiles)
    JUDGE_THROW(judge::Error, "reference '{}': B = {}, L = {} is outside the constraints (B <= 256, L <= 65536)", kId,
                B, L);
  // A new epoch per call (never 0, which the zero-initialised flags hold), in the flags' upper 30 bits.
  static unsigned call = 0;
  if (((++call) & 0x3fffffffu) == 0) ++call;
  const unsigned epoch = (call & 0x3fffffffu) << 2;
  if (L % 4 == 0 && judge::ref::aligned16(a, x, h))
    scan_kernel<true><<<static_cast<unsigned>(tiles), kThreads, 0, s>>>(a, x, h, L, tiles_per_row, epoch);
  else
    scan_kernel<false><<<static_cast<unsigned>(tiles), kThreads, 0, s>>>(a, x, h, L, tiles_per_row, epoch);
  judge::ref::check_launch(kId, "scan_kernel");
}

void cpu(judge::HostArgs& args) {
  const std::int64_t B = args.scalar<int>("B");
  const std::int64_t L = args.scalar<int>("L");
  const float* a = args.input<float>("a");
  const float* x = args.input<float>("x");
  double* h = args.output("h");
  for (std::int64_t b = 0; b < B; ++b) {
    double v = 0.0;
    for (std::int64_t t = 0; t < L; ++t) {
      v = (t == 0 ? 0.0 : static_cast<double>(a[b * L + t]) * v) + static_cast<double>(x[b * L + t]);
      h[b * L + t] = v;
    }
  }
}

}  // namespace

JUDGE_REFERENCE(linear_recurrence, gpu, cpu)
