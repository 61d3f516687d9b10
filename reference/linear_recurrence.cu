// Reference for challenges/linear_recurrence: h[b, 0] = x[b, 0], h[b, t] = a[b, t] h[b, t-1] + x[b, t], every row on
// its own, in double and rounded once to float per element. Each step is the affine map h -> a h + x, and affine maps
// compose associatively ((a1, x1) then (a2, x2) is (a1 a2, a2 x1 + x2)), so the scan runs in parallel along the row.
//
// One pass, decoupled look-back, each row on its own (reference/affine_scan.cuh): a block takes a tile of kTile
// consecutive elements of one row (kItems per thread, float4 loads), and each thread replays its elements from the
// carry it gets. Inputs are read once and the output written once: 12 bytes an element.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/affine_scan.cuh"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "linear_recurrence";
using namespace judge::ref::affine_scan;

// 4 blocks an SM (64 registers, a few bytes spilled around the look-back) keep 64 KB of loads in flight per SM.
template <bool kVec>
__global__ void __launch_bounds__(kThreads, 4) scan_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                                        float* __restrict__ h, int L, int tiles_per_row,
                                                        unsigned epoch) {
  const int tile = blockIdx.x;
  const int row = tile / tiles_per_row;
  const int chunk = tile % tiles_per_row;
  const std::int64_t row_base = static_cast<std::int64_t>(row) * L;
  const int first = chunk * kTile + threadIdx.x * kItems;  // this thread's first element within the row

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

  // This thread's map, then the value entering its first element.
  Affine own = {av[0], xv[0]};
#pragma unroll
  for (int i = 1; i < kItems; ++i) own = compose(own, Affine{av[i], xv[i]});
  double v = carry_in(own, tile, chunk, tiles_per_row, epoch);
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
  const std::int64_t tiles = tiles_for(kId, B, L, "B", "L");
  const unsigned epoch = next_epoch();
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
