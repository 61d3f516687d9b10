// Reference for challenges/gae_reverse_scan: per row b, delta[t] = rewards[t] + gamma * values[t+1] - values[t]
// (values[S] taken as 0), then advantages[t] = delta[t] + c * advantages[t+1] with c = gamma * lam and
// advantages[S] = 0, all in double (c = gamma * lam is exact in double for float gamma and lam) and rounded once to
// float per element. Each step, taken from the row's end backwards, is the affine map A -> c A + delta, and affine
// maps compose associatively, so the scan runs in parallel along the row.
//
// The machinery of reference/linear_recurrence.cu, mirrored: one pass, decoupled look-back within each row, tiles of
// kTile elements numbered from the row's END (tile 0 of a row holds its last kTile elements), so a tile only ever
// waits on tiles that are later in the row and earlier in blockIdx.x. Each thread owns kItems consecutive elements
// (two float4 loads of rewards and of values, plus the one value after them for the bootstrap) and walks them from
// the right. Inputs are read once and the output written once: 12 bytes an element. Tile flags carry a per-call
// epoch, so nothing needs clearing between calls.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "gae_reverse_scan";
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kItems = 8;  // consecutive elements per thread: two float4 of rewards, two of values
constexpr int kTile = kThreads * kItems;
constexpr int kMaxTilesPerRow = 65536 / kTile;  // the constraints: S <= 65536, B <= 256
constexpr int kMaxTiles = 256 * kMaxTilesPerRow;
static_assert(kMaxTilesPerRow <= 32, "the look-back reads all of a row's later tiles with one warp");

constexpr unsigned kAggregate = 1, kInclusive = 2;  // low bits of a tile flag; the rest is the call's epoch

// Tile states of the current call. A tile's inclusive value is the advantage at its first (leftmost) element.
__device__ unsigned g_flag[kMaxTiles];
__device__ double2 g_aggregate[kMaxTiles];
__device__ double g_inclusive[kMaxTiles];

// The affine map A -> a A + b.
struct Affine {
  double a, b;
};
__device__ inline Affine identity() { return {1.0, 0.0}; }
// l applied first, then r.
__device__ inline Affine compose(Affine l, Affine r) { return {l.a * r.a, fma(r.a, l.b, r.b)}; }
__device__ inline double apply(Affine f, double h) { return fma(f.a, h, f.b); }

__device__ inline void publish(int tile, unsigned flag) {
  __threadfence();  // the value stored before is visible device-wide before the flag is
  *reinterpret_cast<volatile unsigned*>(&g_flag[tile]) = flag;
}

// The advantage just right of tile `tile` (chunk > 0 of its row), from the tiles right of it in the row; they are at
// most 31, so one warp reads all their flags at once (lane j: tile - 1 - j) and waits until each has published at
// least its aggregate. The nearest tile with an inclusive value gives the base (the row's last tile, chunk 0, always
// has one), the aggregates of the tiles between are composed in a shuffle tree. Called by every lane of one warp;
// valid in lane 0.
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
  const int nearest = __ffs(inclusive) - 1;  // lane chunk - 1 (the row's chunk 0) is inclusive: never -1
  Affine mine = identity();
  double base = 0.0;
  if (lane < nearest) {
    const double2 agg = __ldcg(&g_aggregate[p]);
    mine = Affine{agg.x, agg.y};
  } else if (lane == nearest) {
    base = __ldcg(&g_inclusive[p]);
  }
  // Higher lanes hold tiles applied earlier: lane 0 ends with lanes nearest - 1 .. 0 composed in that order.
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const Affine earlier = {__shfl_down_sync(0xffffffffu, mine.a, d), __shfl_down_sync(0xffffffffu, mine.b, d)};
    if (lane + d < 32) mine = compose(earlier, mine);
  }
  base = __shfl_sync(0xffffffffu, base, nearest);
  return apply(mine, base);
}

// 4 blocks an SM keep 64 KB of loads in flight per SM.
template <bool kVec>
__global__ void __launch_bounds__(kThreads, 4)
    gae_kernel(const float* __restrict__ rewards, const float* __restrict__ values, float* __restrict__ advantages,
               double gamma, double c, int S, int tiles_per_row, unsigned epoch) {
  __shared__ Affine warp_total[kWarps];
  __shared__ double carry_in;
  const int tile = blockIdx.x;
  const int row = tile / tiles_per_row;
  const int chunk = tile % tiles_per_row;  // counted from the row's end
  const std::int64_t row_base = static_cast<std::int64_t>(row) * S;
  // This thread's elements are t0 .. t0 + kItems - 1 of the row (those below 0 do not exist); it takes them from the
  // right, item i being element t0 + kItems - 1 - i.
  const int t0 = S - (chunk * kTile + (static_cast<int>(threadIdx.x) + 1) * kItems);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  float r[kItems], v[kItems];
  if constexpr (kVec) {  // S % 4 == 0 and 16-byte aligned arrays: t0 % 4 == 0, each group of 4 wholly in or out
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) {
      const int t = t0 + 4 * g;
      float4 qr = make_float4(0.f, 0.f, 0.f, 0.f), qv = qr;
      if (t >= 0) {
        qr = __ldcs(reinterpret_cast<const float4*>(rewards + row_base + t));
        qv = __ldcs(reinterpret_cast<const float4*>(values + row_base + t));
      }
      r[4 * g] = qr.x, r[4 * g + 1] = qr.y, r[4 * g + 2] = qr.z, r[4 * g + 3] = qr.w;
      v[4 * g] = qv.x, v[4 * g + 1] = qv.y, v[4 * g + 2] = qv.z, v[4 * g + 3] = qv.w;
    }
  } else {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int t = t0 + j;
      r[j] = t >= 0 ? __ldcs(rewards + row_base + t) : 0.f;
      v[j] = t >= 0 ? __ldcs(values + row_base + t) : 0.f;
    }
  }
  // The value after this thread's last element: the next thread's first (a cache hit), or 0 past the row's end.
  const int after = t0 + kItems;
  const float v_after = after >= 0 && after < S ? values[row_base + after] : 0.f;

  // delta of element t0 + j, in double; elements that do not exist are the identity map (a = 1, delta = 0).
  double delta[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const double next = j + 1 < kItems ? static_cast<double>(v[j + 1]) : static_cast<double>(v_after);
    delta[j] = t0 + j >= 0 ? fma(gamma, next, static_cast<double>(r[j])) - static_cast<double>(v[j]) : 0.0;
  }
  auto decay = [&](int j) { return t0 + j >= 0 ? c : 1.0; };

  // This thread's map (rightmost element first), then the block's exclusive scan of the threads' maps: thread 0 holds
  // the rightmost elements of the tile, so the scan runs up the thread index as in a forward scan.
  Affine inc = {decay(kItems - 1), delta[kItems - 1]};
#pragma unroll
  for (int j = kItems - 2; j >= 0; --j) inc = compose(inc, Affine{decay(j), delta[j]});
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const Affine up = {__shfl_up_sync(0xffffffffu, inc.a, d), __shfl_up_sync(0xffffffffu, inc.b, d)};
    if (lane >= d) inc = compose(up, inc);
  }
  if (lane == 31) warp_total[warp] = inc;
  Affine exc = {__shfl_up_sync(0xffffffffu, inc.a, 1), __shfl_up_sync(0xffffffffu, inc.b, 1)};
  if (lane == 0) exc = identity();
  __syncthreads();

  // Warp 0: the tile's total, then the carry into the tile (the advantage just right of its last element). Only
  // tiles left of it in the same row read a tile's flag, so the row's leftmost tile publishes nothing and its
  // rightmost publishes its inclusive value at once.
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
    const double carry = chunk > 0 ? look_back(tile, chunk, epoch) : 0.0;
    if (lane == 0) {
      if (!last) {
        __stcg(&g_inclusive[tile], apply(total, carry));
        publish(tile, epoch | kInclusive);
      }
      carry_in = carry;
    }
  }
  __syncthreads();

  double adv = apply(exc, apply(warp_total[warp], carry_in));
  float out[kItems];
#pragma unroll
  for (int j = kItems - 1; j >= 0; --j) {
    adv = fma(decay(j), adv, delta[j]);
    out[j] = static_cast<float>(adv);
  }
  if constexpr (kVec) {
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) {
      const int t = t0 + 4 * g;
      if (t >= 0)
        __stcs(reinterpret_cast<float4*>(advantages + row_base + t),
               make_float4(out[4 * g], out[4 * g + 1], out[4 * g + 2], out[4 * g + 3]));
    }
  } else {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (t0 + j >= 0) advantages[row_base + t0 + j] = out[j];
  }
}

void gpu(const judge::DeviceArgs& args, cudaStream_t s) {
  const int B = args.scalar<int>("B");
  const int S = args.scalar<int>("S");
  if (B <= 0 || S <= 0) return;
  const float* rewards = args.input<float>("rewards");
  const float* values = args.input<float>("values");
  float* advantages = args.output<float>("advantages");
  // solve() gets gamma and lam as floats; their product is exact in double.
  const double gamma = args.scalar<float>("gamma");
  const double c = gamma * static_cast<double>(args.scalar<float>("lam"));
  const int tiles_per_row = (S + kTile - 1) / kTile;
  const std::int64_t tiles = static_cast<std::int64_t>(B) * tiles_per_row;
  if (tiles_per_row > kMaxTilesPerRow || tiles > kMaxTiles)
    JUDGE_THROW(judge::Error, "reference '{}': B = {}, S = {} is outside the constraints (B <= 256, S <= 65536)", kId,
                B, S);
  // A new epoch per call (never 0, which the zero-initialised flags hold), in the flags' upper 30 bits.
  static unsigned call = 0;
  if (((++call) & 0x3fffffffu) == 0) ++call;
  const unsigned epoch = (call & 0x3fffffffu) << 2;
  if (S % 4 == 0 && judge::ref::aligned16(rewards, values, advantages))
    gae_kernel<true><<<static_cast<unsigned>(tiles), kThreads, 0, s>>>(rewards, values, advantages, gamma, c, S,
                                                                        tiles_per_row, epoch);
  else
    gae_kernel<false><<<static_cast<unsigned>(tiles), kThreads, 0, s>>>(rewards, values, advantages, gamma, c, S,
                                                                         tiles_per_row, epoch);
  judge::ref::check_launch(kId, "gae_kernel");
}

void cpu(judge::HostArgs& args) {
  const std::int64_t B = args.scalar<int>("B");
  const std::int64_t S = args.scalar<int>("S");
  const float* r = args.input<float>("rewards");
  const float* v = args.input<float>("values");
  double* adv = args.output("advantages");
  const double gamma = args.scalar<float>("gamma");
  const double c = gamma * static_cast<double>(args.scalar<float>("lam"));
  for (std::int64_t b = 0; b < B; ++b) {
    double next_adv = 0.0;
    for (std::int64_t t = S - 1; t >= 0; --t) {
      const double next_value = t + 1 < S ? static_cast<double>(v[b * S + t + 1]) : 0.0;
      const double delta = static_cast<double>(r[b * S + t]) + gamma * next_value - static_cast<double>(v[b * S + t]);
      next_adv = delta + c * next_adv;
      adv[b * S + t] = next_adv;
    }
  }
}

}  // namespace

JUDGE_REFERENCE(gae_reverse_scan, gpu, cpu)
