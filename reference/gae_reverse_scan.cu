// Reference for challenges/gae_reverse_scan: per row b, delta[t] = rewards[t] + gamma * values[t+1] - values[t]
// (values[S] taken as 0), then advantages[t] = delta[t] + c * advantages[t+1] with c = gamma * lam and
// advantages[S] = 0, all in double (c = gamma * lam is exact in double for float gamma and lam) and rounded once to
// float per element. Each step, taken from the row's end backwards, is the affine map A -> c A + delta, and affine
// maps compose associatively, so the scan runs in parallel along the row.
//
// The scan of reference/affine_scan.cuh, mirrored: one pass, decoupled look-back within each row, tiles of
// kTile elements numbered from the row's END (tile 0 of a row holds its last kTile elements), so a tile only ever
// waits on tiles that are later in the row and earlier in blockIdx.x. Each thread owns kItems consecutive elements
// (two float4 loads of rewards and of values, plus the one value after them for the bootstrap) and walks them from
// the right. Inputs are read once and the output written once: 12 bytes an element. Tile flags carry a per-call
// epoch, so nothing needs clearing between calls.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/affine_scan.cuh"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "gae_reverse_scan";
using namespace judge::ref::affine_scan;

// 4 blocks an SM keep 64 KB of loads in flight per SM.
template <bool kVec>
__global__ void __launch_bounds__(kThreads, 4)
    gae_kernel(const float* __restrict__ rewards, const float* __restrict__ values, float* __restrict__ advantages,
               double gamma, double c, int S, int tiles_per_row, unsigned epoch) {
  const int tile = blockIdx.x;
  const int row = tile / tiles_per_row;
  const int chunk = tile % tiles_per_row;  // counted from the row's end
  const std::int64_t row_base = static_cast<std::int64_t>(row) * S;
  // This thread's elements are t0 .. t0 + kItems - 1 of the row (those below 0 do not exist); it takes them from the
  // right, item i being element t0 + kItems - 1 - i.
  const int t0 = S - (chunk * kTile + (static_cast<int>(threadIdx.x) + 1) * kItems);

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

  // This thread's map (rightmost element first), then the advantage just right of its last element: thread 0 holds
  // the rightmost elements of the tile, so the scan runs up the thread index as in a forward scan.
  Affine own = {decay(kItems - 1), delta[kItems - 1]};
#pragma unroll
  for (int j = kItems - 2; j >= 0; --j) own = compose(own, Affine{decay(j), delta[j]});
  double adv = carry_in(own, tile, chunk, tiles_per_row, epoch);
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
  const std::int64_t tiles = tiles_for(kId, B, S, "B", "S");
  const unsigned epoch = next_epoch();
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
