#pragma once
// The one-pass scan of affine maps that reference/linear_recurrence.cu (h -> a h + x, left to right) and
// reference/gae_reverse_scan.cu (A -> c A + delta, right to left) share: affine maps compose associatively
// ((a1, b1) then (a2, b2) is (a1 a2, a2 b1 + b2)), so a row's recurrence runs in parallel along it.
//
// Decoupled look-back (Merrill and Garland), each row on its own: a block of kThreads threads takes a tile of kTile
// consecutive elements of one row, kItems per thread, in the scan's order. Each thread composes its elements' maps
// into one (in double) and calls carry_in(), which scans the threads' maps across the block, publishes the tile's
// aggregate, reads the flags of the tiles before it in the same row (at most 31: one warp reads them all), composes
// the aggregates after the nearest one that has published its inclusive value (the row's first tile always does, at
// once), publishes its own, and returns the value entering the thread's first element. The thread then replays its
// elements from there. Tiles are numbered by blockIdx.x in row-major scan order, so a tile only ever waits on blocks
// launched before it (CUB's scan makes the same assumption). Tile flags carry a per-call epoch (next_epoch()), so
// nothing needs clearing between calls. The carry reached through aggregates or through an inclusive value differs by
// double rounding only (~1e-16 relative), which survives the rounding to float only in a rare exact tie.
//
// The tile states have internal linkage (static): each reference that includes this header has its own.
#include <cstdint>

#include "judge/core/base/error.hpp"

namespace judge::ref::affine_scan {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kItems = 8;  // consecutive elements per thread: two float4 of each input
constexpr int kTile = kThreads * kItems;
constexpr int kMaxRowLength = 65536;  // both challenges' constraints: rows of at most 65536, at most 256 rows
constexpr int kMaxRows = 256;
constexpr int kMaxTilesPerRow = kMaxRowLength / kTile;
constexpr int kMaxTiles = kMaxRows * kMaxTilesPerRow;
static_assert(kMaxTilesPerRow <= 32, "the look-back reads all of a row's earlier tiles with one warp");

constexpr unsigned kAggregate = 1, kInclusive = 2;  // low bits of a tile flag; the rest is the call's epoch

// Tile states of the current call. A tile's inclusive value is the row's value after its last element (in scan order).
static __device__ unsigned g_flag[kMaxTiles];
static __device__ double2 g_aggregate[kMaxTiles];
static __device__ double g_inclusive[kMaxTiles];

// The affine map v -> a v + b.
struct Affine {
  double a, b;
};
__device__ inline Affine identity() { return {1.0, 0.0}; }
// l applied first, then r.
__device__ inline Affine compose(Affine l, Affine r) { return {l.a * r.a, fma(r.a, l.b, r.b)}; }
__device__ inline double apply(Affine f, double v) { return fma(f.a, v, f.b); }
__device__ inline Affine shfl_up(Affine f, int delta) {
  return {__shfl_up_sync(0xffffffffu, f.a, delta), __shfl_up_sync(0xffffffffu, f.b, delta)};
}

static __device__ inline void publish(int tile, unsigned flag) {
  __threadfence();  // the value stored before is visible device-wide before the flag is
  *reinterpret_cast<volatile unsigned*>(&g_flag[tile]) = flag;
}

// The row's value just before tile `tile` (chunk > 0 of its row), from the tiles before it in the row; they are at
// most 31, so one warp reads all their flags at once (lane j: tile - 1 - j) and waits until each has published at
// least its aggregate. The nearest tile with an inclusive value gives the base (the row's first tile always has one),
// the aggregates of the tiles after it are composed in a shuffle tree. Called by every lane of one warp; valid in
// lane 0.
static __device__ double look_back(int tile, int chunk, unsigned epoch) {
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

// The value entering this thread's first element, given `own`, the composition of its elements' maps in scan order
// (elements past the row are the identity). Tile `tile` is chunk `chunk` of its row's tiles_per_row. Every thread of
// the block calls it, once.
static __device__ double carry_in(Affine own, int tile, int chunk, int tiles_per_row, unsigned epoch) {
  __shared__ Affine warp_total[kWarps];
  __shared__ double tile_carry;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // The block's exclusive scan of the threads' maps: warp shuffles, then the warp totals.
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

  // Warp 0: the tile's total, then the carry into the tile. Only later tiles of the same row read a tile's flag, so
  // the row's last tile publishes nothing and its first publishes its inclusive value at once.
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
      tile_carry = c;
    }
  }
  __syncthreads();
  return apply(exc, apply(warp_total[warp], tile_carry));
}

// A new epoch per call (never 0, which the zero-initialised flags hold), in the flags' upper 30 bits.
inline unsigned next_epoch() {
  static unsigned call = 0;
  if (((++call) & 0x3fffffffu) == 0) ++call;
  return (call & 0x3fffffffu) << 2;
}

// The tiles of `rows` rows of `length` elements (both at least 1), after checking that the tile states hold them.
inline std::int64_t tiles_for(const char* id, int rows, int length, const char* rows_name, const char* length_name) {
  const int tiles_per_row = (length + kTile - 1) / kTile;
  const std::int64_t tiles = static_cast<std::int64_t>(rows) * tiles_per_row;
  if (tiles_per_row > kMaxTilesPerRow || tiles > kMaxTiles)
    JUDGE_THROW(judge::Error, "reference '{}': {} = {}, {} = {} is outside the constraints ({} <= {}, {} <= {})", id,
                rows_name, rows, length_name, length, rows_name, kMaxRows, length_name, kMaxRowLength);
  return tiles;
}

}  // namespace judge::ref::affine_scan
