// Reference for challenges/group_normalization: per sample n and group g, the mean and the population variance over
// the group's C/G channels x H x W elements, then Y = (X - mean) / sqrt(var + eps) * gamma[c] + beta[c].
//
// In NCHW a group is contiguous: the tensor is N*G rows ("groups") of L = (C/G)*H*W floats, and element j of group
// (n, g) has channel c = g*(C/G) + j / (H*W). Each group is cut into tiles of kTile elements, one tile per block at a
// time, held in registers. A tile's statistics are the sums of d = x - x0 and d^2 in double, x0 being the group's first
// element (the shift keeps the one-pass variance free of cancellation); a group's tiles' sums are added in tile order
// (deterministic, no float atomics) into its mean and 1 / sqrt(var + eps), and each output is computed in double.
//
// Fast path (both benchmarks, every test): ONE cooperative kernel that reads X once. The grid is a whole number of
// groups' worth of tiles, no more than are resident at once (cooperative launch guarantees it), and block b handles
// tiles b, b + grid, b + 2*grid, ...: every group's tiles are handled in the same round, by blocks that never wait on a
// later round, so blocks may wait for one another. Per tile: load it, publish its sums, start loading the block's next
// tile, wait until the group's last tile has arrived (that block adds the group's sums and publishes the statistics),
// then write the outputs from registers. Counters are left at 0 and flags compare against a per-call epoch, so no
// memset. Fallback (no cooperative launch, or a group of more tiles than are resident): three kernels, X read twice.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "group_normalization";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kTile = 4096;                       // elements of one group per tile
constexpr int kPerThread = kTile / kBlock;        // floats of the tile in each thread's registers
constexpr int kMaxGroups = 32 * 1024;             // N * G at the constraints' maxima (fast path only)
constexpr unsigned long long kSpinLimitNs = 10ull * 1000 * 1000 * 1000;

// Fast path's state. Each group is finished once per call: its last tile's block resets g_arrived to 0 and sets
// g_ready to the call's epoch (never 0), so the arrays start every call ready for it.
__device__ unsigned g_arrived[kMaxGroups];
__device__ unsigned g_ready[kMaxGroups];
__device__ double2 g_stats[kMaxGroups];  // (mean, 1 / sqrt(var + eps))

struct Params {
  const float* x;
  const float* gamma;
  const float* beta;
  float* y;
  double2* partial;         // one (sum d, sum d^2) per tile
  double2* stats;           // fallback: one (mean, 1 / sqrt(var + eps)) per group
  std::int64_t tiles;       // groups * tiles_per_group
  int L;                    // elements per group, (C / G) * H * W <= 2^24
  int HW;                   // H * W
  int Cg;                   // C / G
  int G;
  int tiles_per_group;
  float eps;
};

// The tile starting at element `begin` of the group starting at `start`: v[i * kVec + e] is element
// begin + (i * kBlock + threadIdx.x) * kVec + e (kVec = 4: float4 loads, which need H*W % 4 == 0 and aligned
// pointers; then L % 4 == 0 and a float4 is wholly inside or outside the group, and inside one channel).
template <int kVec>
__device__ __forceinline__ void load_tile(const float* __restrict__ x, std::int64_t start, int begin, int L,
                                          float (&v)[kPerThread]) {
#pragma unroll
  for (int i = 0; i < kPerThread / kVec; ++i) {
    const int j = begin + (i * kBlock + threadIdx.x) * kVec;
    if (j < L) {
      if constexpr (kVec == 4) {
        const float4 q = __ldg(reinterpret_cast<const float4*>(x + start + j));
        v[4 * i] = q.x, v[4 * i + 1] = q.y, v[4 * i + 2] = q.z, v[4 * i + 3] = q.w;
      } else {
        v[i] = __ldg(x + start + j);
      }
    } else {
#pragma unroll
      for (int e = 0; e < kVec; ++e) v[i * kVec + e] = 0.0f;
    }
  }
}

// (sum of d, sum of d^2) over the tile's elements, d = x - shift; valid in thread 0. Every thread must call it.
template <int kVec>
__device__ double2 tile_sums(const float (&v)[kPerThread], int begin, int L, double shift, double2* warp_sums) {
  double s1 = 0.0, s2 = 0.0;
#pragma unroll
  for (int i = 0; i < kPerThread / kVec; ++i) {
    if (begin + (i * kBlock + int(threadIdx.x)) * kVec >= L) continue;
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      const double d = double(v[i * kVec + e]) - shift;
      s1 += d;
      s2 += d * d;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    s1 += __shfl_xor_sync(0xffffffffu, s1, o);
    s2 += __shfl_xor_sync(0xffffffffu, s2, o);
  }
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = make_double2(s1, s2);
  __syncthreads();
  double2 r = make_double2(0.0, 0.0);
  if (threadIdx.x == 0)
    for (int w = 0; w < kBlock / 32; ++w) r.x += warp_sums[w].x, r.y += warp_sums[w].y;
  return r;  // warp_sums is rewritten only after the caller's next barrier
}

// A group's statistics from its tiles' sums, added in tile order.
__device__ double2 group_stats(const double2* partial, int tiles, double shift, int L, float eps) {
  double s1 = 0.0, s2 = 0.0;
  for (int k = 0; k < tiles; ++k) {
    const double2 q = __ldcg(partial + k);
    s1 += q.x;
    s2 += q.y;
  }
  const double m = s1 / L;  // mean - shift
  const double var = fmax(s2 / L - m * m, 0.0);
  return make_double2(shift + m, 1.0 / sqrt(var + double(eps)));
}

template <int kVec>
__device__ __forceinline__ void store_tile(const Params& p, const float (&v)[kPerThread], std::int64_t group,
                                           int begin, double2 stats) {
  float* y = p.y + group * p.L;
  const int c0 = static_cast<int>(group % p.G) * p.Cg;
#pragma unroll
  for (int i = 0; i < kPerThread / kVec; ++i) {
    const int j = begin + (i * kBlock + threadIdx.x) * kVec;
    if (j >= p.L) continue;
    const int c = c0 + j / p.HW;
    const double scale = stats.y * __ldg(p.gamma + c), shift = __ldg(p.beta + c);
    if constexpr (kVec == 4) {
      float4 o;
      o.x = static_cast<float>(fma(double(v[4 * i]) - stats.x, scale, shift));
      o.y = static_cast<float>(fma(double(v[4 * i + 1]) - stats.x, scale, shift));
      o.z = static_cast<float>(fma(double(v[4 * i + 2]) - stats.x, scale, shift));
      o.w = static_cast<float>(fma(double(v[4 * i + 3]) - stats.x, scale, shift));
      *reinterpret_cast<float4*>(y + j) = o;
    } else {
      y[j] = static_cast<float>(fma(double(v[i]) - stats.x, scale, shift));
    }
  }
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The fast path. gridDim.x is a multiple of tiles_per_group and no larger than the resident blocks.
template <int kVec>
__global__ void __launch_bounds__(kBlock) fused_kernel(Params p, unsigned epoch) {
  __shared__ double2 warp_sums[kBlock / 32];
  __shared__ double2 shared_stats;
  const std::int64_t stride = gridDim.x;
  std::int64_t t = blockIdx.x;
  if (t >= p.tiles) return;
  float cur[kPerThread], next[kPerThread];
  load_tile<kVec>(p.x, t / p.tiles_per_group * p.L, int(t % p.tiles_per_group) * kTile, p.L, cur);
  for (; t < p.tiles; t += stride) {
    const std::int64_t group = t / p.tiles_per_group;
    const int begin = static_cast<int>(t % p.tiles_per_group) * kTile;
    const double shift = __ldg(p.x + group * p.L);
    const double2 sums = tile_sums<kVec>(cur, begin, p.L, shift, warp_sums);
    bool last = false;
    if (threadIdx.x == 0) {
      p.partial[t] = sums;
      __threadfence();  // the sums are visible before the count says so
      last = atomicAdd(&g_arrived[group], 1u) == unsigned(p.tiles_per_group) - 1u;
    }
    const std::int64_t tn = t + stride;  // the next tile's loads are in flight while this group is finished
    if (tn < p.tiles)
      load_tile<kVec>(p.x, tn / p.tiles_per_group * p.L, int(tn % p.tiles_per_group) * kTile, p.L, next);
    if (threadIdx.x == 0) {
      double2 stats;
      if (last) {
        __threadfence();
        stats = group_stats(p.partial + group * p.tiles_per_group, p.tiles_per_group, shift, p.L, p.eps);
        __stcg(&g_stats[group], stats);
        g_arrived[group] = 0u;
        __threadfence();  // the statistics (and the reset) before the flag
        atomicExch(&g_ready[group], epoch);
      } else {
        const unsigned long long t0 = global_ns();
        while (*static_cast<volatile unsigned*>(&g_ready[group]) != epoch) {
          __nanosleep(32);
          if (global_ns() - t0 > kSpinLimitNs) __trap();  // a broken wait: fail loudly instead of hanging the judge
        }
        __threadfence();
        stats = __ldcg(&g_stats[group]);
      }
      shared_stats = stats;
    }
    __syncthreads();
    store_tile<kVec>(p, cur, group, begin, shared_stats);
    if (tn < p.tiles) {
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) cur[i] = next[i];
    }
  }
}

// Fallback, kernel 1 of 3: one block per tile, its sums.
template <int kVec>
__global__ void __launch_bounds__(kBlock) sums_kernel(Params p) {
  __shared__ double2 warp_sums[kBlock / 32];
  const std::int64_t t = blockIdx.x;
  const std::int64_t group = t / p.tiles_per_group;
  const int begin = static_cast<int>(t % p.tiles_per_group) * kTile;
  float v[kPerThread];
  load_tile<kVec>(p.x, group * p.L, begin, p.L, v);
  const double2 sums = tile_sums<kVec>(v, begin, p.L, __ldg(p.x + group * p.L), warp_sums);
  if (threadIdx.x == 0) p.partial[t] = sums;
}

// Kernel 2: one thread per group, its statistics.
__global__ void stats_kernel(Params p, std::int64_t groups) {
  const std::int64_t group = std::int64_t(blockIdx.x) * kBlock + threadIdx.x;
  if (group >= groups) return;
  p.stats[group] = group_stats(p.partial + group * p.tiles_per_group, p.tiles_per_group, __ldg(p.x + group * p.L),
                               p.L, p.eps);
}

// Kernel 3: one block per tile, the tile read again and its outputs written.
template <int kVec>
__global__ void __launch_bounds__(kBlock) normalize_kernel(Params p) {
  const std::int64_t t = blockIdx.x;
  const std::int64_t group = t / p.tiles_per_group;
  const int begin = static_cast<int>(t % p.tiles_per_group) * kTile;
  float v[kPerThread];
  load_tile<kVec>(p.x, group * p.L, begin, p.L, v);
  store_tile<kVec>(p, v, group, begin, p.stats[group]);
}

// Blocks of fused_kernel<kVec> resident at once, or 0 where the device has no cooperative launch.
template <int kVec>
unsigned cooperative_blocks() {
  int device = 0, coop = 0;
  judge::ref::check_cuda(cudaGetDevice(&device), kId, "cudaGetDevice");
  judge::ref::check_cuda(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device), kId,
                         "cudaDeviceGetAttribute(CooperativeLaunch)");
  return coop ? judge::ref::resident_blocks(fused_kernel<kVec>, kBlock, kId) : 0u;
}

unsigned next_epoch() {
  static unsigned epoch = 0;  // shared by both instantiations: they share g_ready
  if (++epoch == 0) epoch = 1;
  return epoch;
}

template <int kVec>
void run(const Params& p, std::int64_t groups, cudaStream_t s) {
  static const unsigned resident = cooperative_blocks<kVec>();
  const std::int64_t per_round = resident / unsigned(p.tiles_per_group) * std::int64_t(p.tiles_per_group);
  if (per_round > 0 && groups <= kMaxGroups) {
    const std::int64_t grid = per_round < p.tiles ? per_round : p.tiles;  // both multiples of tiles_per_group
    const unsigned epoch = next_epoch();
    judge::ref::launch_cooperative(kId, "fused_kernel", fused_kernel<kVec>, static_cast<unsigned>(grid), kBlock, 0, s,
                                   p, epoch);
    return;
  }
  const unsigned tiles = static_cast<unsigned>(p.tiles);
  sums_kernel<kVec><<<tiles, kBlock, 0, s>>>(p);
  judge::ref::check_launch(kId, "sums_kernel");
  stats_kernel<<<static_cast<unsigned>((groups + kBlock - 1) / kBlock), kBlock, 0, s>>>(p, groups);
  judge::ref::check_launch(kId, "stats_kernel");
  normalize_kernel<kVec><<<tiles, kBlock, 0, s>>>(p);
  judge::ref::check_launch(kId, "normalize_kernel");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  const int C = a.scalar<int>("C");
  const int H = a.scalar<int>("H");
  const int W = a.scalar<int>("W");
  const int G = a.scalar<int>("G");
  if (N <= 0 || C <= 0 || H <= 0 || W <= 0 || G <= 0) return;
  Params p{};
  p.x = a.input<float>("X");
  p.gamma = a.input<float>("gamma");
  p.beta = a.input<float>("beta");
  p.y = a.output<float>("Y");
  p.HW = H * W;
  p.Cg = C / G;
  p.G = G;
  p.L = p.Cg * p.HW;
  p.eps = a.scalar<float>("eps");
  p.tiles_per_group = (p.L + kTile - 1) / kTile;
  const std::int64_t groups = std::int64_t(N) * G;
  p.tiles = groups * p.tiles_per_group;
  static judge::ref::Scratch scratch(kId, "tile sums and group statistics");
  p.partial = scratch.get<double2>(static_cast<std::size_t>(p.tiles + groups));
  p.stats = p.partial + p.tiles;
  if (p.HW % 4 == 0 && judge::ref::aligned16(p.x, p.y)) run<4>(p, groups, s);
  else run<1>(p, groups, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t C = a.scalar<int>("C");
  const std::int64_t HW = std::int64_t(a.scalar<int>("H")) * a.scalar<int>("W");
  const std::int64_t G = a.scalar<int>("G");
  const double eps = a.scalar<float>("eps");
  const float* x = a.input<float>("X");
  const float* gamma = a.input<float>("gamma");
  const float* beta = a.input<float>("beta");
  double* y = a.output("Y");
  const std::int64_t Cg = C / G, L = Cg * HW;
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t g = 0; g < G; ++g) {
      const std::int64_t start = (n * G + g) * L;  // = n * C * HW + g * Cg * HW
      double mean = 0.0;
      for (std::int64_t j = 0; j < L; ++j) mean += x[start + j];
      mean /= double(L);
      double var = 0.0;
      for (std::int64_t j = 0; j < L; ++j) var += (x[start + j] - mean) * (x[start + j] - mean);
      var /= double(L);
      const double rstd = 1.0 / std::sqrt(var + eps);
      for (std::int64_t j = 0; j < L; ++j) {
        const std::int64_t c = g * Cg + j / HW;
        y[start + j] = (x[start + j] - mean) * rstd * gamma[c] + beta[c];
      }
    }
}

}  // namespace

JUDGE_REFERENCE(group_normalization, gpu, cpu)
