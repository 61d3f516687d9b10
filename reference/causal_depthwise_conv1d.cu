// Reference for challenges/causal_depthwise_conv1d: for x and output of shape (B, L, D), channels last,
//   output[b, l, d] = bias[d] + sum_{k < K} weight[d, k] * x[b, l - k, d],   x[b, l - k, d] = 0 where l - k < 0,
// so weight[d, 0] multiplies the current position and weight[d, K - 1] the oldest (LeetGPU's kernel flip).
//
// Memory-bound (K <= 8: at most 16 flops per 8 bytes moved). Each thread owns V adjacent channels (a float4 for
// K <= 4, else a float2, or a float where D or the pointers' alignment allow no wider) of one batch row over kT
// consecutive positions: it reads the K - 1 rows before its first position once (the halo, zero before l = 0),
// then streams its kT rows, kG loads in flight at a time, sliding a window of the last K - 1 rows in registers, so
// every input is loaded once (plus a halo of (K - 1) / kT, which the neighbouring chunk's thread is reading at the
// same time: an L2 hit). Warps run along D, so every load and store is coalesced. No shared memory, no barrier.
//
// Accuracy: every product of two floats is exact in double, so with double accumulation the only error is the one
// rounding to float at the end: the reference is the correctly rounded answer for all practical purposes. The
// double work (K DFMAs and two conversions per output) stays well under the FP64 rate at memory speed.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "causal_depthwise_conv1d";
constexpr int kThreads = 128;  // small blocks: a few resident per SM even at the register counts of K = 8
constexpr int kT = 32;         // positions per thread: the halo adds (K - 1) / 32 loads, served from L2
constexpr int kG = 8;          // rows loaded before any is used: 8 independent loads in flight per thread

template <int V>
struct Vec;
template <>
struct Vec<4> {
  static __device__ void load(const float* p, float (&v)[4]) {
    const float4 a = __ldg(reinterpret_cast<const float4*>(p));
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
  }
  static __device__ void store(float* p, const float (&v)[4]) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
  }
};
template <>
struct Vec<2> {
  static __device__ void load(const float* p, float (&v)[2]) {
    const float2 a = __ldg(reinterpret_cast<const float2*>(p));
    v[0] = a.x, v[1] = a.y;
  }
  static __device__ void store(float* p, const float (&v)[2]) {
    *reinterpret_cast<float2*>(p) = make_float2(v[0], v[1]);
  }
};
template <>
struct Vec<1> {
  static __device__ void load(const float* p, float (&v)[1]) { v[0] = __ldg(p); }
  static __device__ void store(float* p, const float (&v)[1]) { *p = v[0]; }
};

// One thread per task (b, chunk of kT positions, group of V channels); tasks are numbered with the channel group
// fastest (coalescing), then the chunk, then the batch row.
template <int K, int V>
__global__ void __launch_bounds__(kThreads)
    causal_conv_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias,
                       float* __restrict__ y, int L, int D, int chunks, std::int64_t tasks) {
  const std::int64_t task = blockIdx.x * std::int64_t(kThreads) + threadIdx.x;
  if (task >= tasks) return;
  const int groups = D / V;
  const int d0 = static_cast<int>(task % groups) * V;
  const std::int64_t rest = task / groups;
  const int l0 = static_cast<int>(rest % chunks) * kT;
  const std::int64_t b = rest / chunks;
  const int l_end = min(l0 + kT, L);
  const float* xb = x + b * L * std::int64_t(D) + d0;
  float* yb = y + b * L * std::int64_t(D) + d0;

  double wd[K][V], acc0[V];
#pragma unroll
  for (int c = 0; c < V; ++c) {
    acc0[c] = bias[d0 + c];
#pragma unroll
    for (int k = 0; k < K; ++k) wd[k][c] = __ldg(w + std::int64_t(d0 + c) * K + k);
  }
  // win[j] holds row l - 1 - j of the current position l (zero before the sequence starts).
  double win[K > 1 ? K - 1 : 1][V];
#pragma unroll
  for (int j = 0; j < K - 1; ++j) {
    float v[V];
    const int l = l0 - 1 - j;
    if (l >= 0) {
      Vec<V>::load(xb + std::int64_t(l) * D, v);
    } else {
#pragma unroll
      for (int c = 0; c < V; ++c) v[c] = 0.0f;
    }
#pragma unroll
    for (int c = 0; c < V; ++c) win[j][c] = v[c];
  }

  for (int l = l0; l < l_end; l += kG) {
    float xv[kG][V];
#pragma unroll
    for (int g = 0; g < kG; ++g) {
      if (l + g < l_end) {
        Vec<V>::load(xb + std::int64_t(l + g) * D, xv[g]);
      } else {
#pragma unroll
        for (int c = 0; c < V; ++c) xv[g][c] = 0.0f;
      }
    }
#pragma unroll
    for (int g = 0; g < kG; ++g) {
      float out[V];
#pragma unroll
      for (int c = 0; c < V; ++c) {
        const double cur = xv[g][c];
        double acc = fma(wd[0][c], cur, acc0[c]);
#pragma unroll
        for (int k = 1; k < K; ++k) acc = fma(wd[k][c], win[k - 1][c], acc);
        out[c] = static_cast<float>(acc);
#pragma unroll
        for (int j = K - 2; j > 0; --j) win[j][c] = win[j - 1][c];
        if (K > 1) win[0][c] = cur;
      }
      if (l + g < l_end) Vec<V>::store(yb + std::int64_t(l + g) * D, out);
    }
  }
}

template <int K, int V>
void launch(const float* x, const float* w, const float* bias, float* y, int B, int L, int D, cudaStream_t s) {
  const int chunks = (L + kT - 1) / kT;
  const std::int64_t tasks = std::int64_t(B) * chunks * (D / V);
  const std::int64_t blocks = (tasks + kThreads - 1) / kThreads;
  causal_conv_kernel<K, V><<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(x, w, bias, y, L, D, chunks, tasks);
  judge::ref::check_launch(kId, "causal_conv_kernel");
}

// Four channels a thread up to K = 4 (LeetGPU's benchmark); two above, where a float4's window and weights in double
// would cost so many registers that too few threads (and loads) stay in flight.
template <int K>
void launch_k(const float* x, const float* w, const float* bias, float* y, int B, int L, int D, cudaStream_t s) {
  const auto addr = reinterpret_cast<std::uintptr_t>(x) | reinterpret_cast<std::uintptr_t>(y);
  if constexpr (K <= 4) {
    if (D % 4 == 0 && addr % 16 == 0) return launch<K, 4>(x, w, bias, y, B, L, D, s);
  }
  if (D % 2 == 0 && addr % 8 == 0) return launch<K, 2>(x, w, bias, y, B, L, D, s);
  launch<K, 1>(x, w, bias, y, B, L, D, s);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int B = a.scalar<int>("B"), L = a.scalar<int>("L"), D = a.scalar<int>("D"), K = a.scalar<int>("K");
  if (B <= 0 || L <= 0 || D <= 0) return;
  const float* x = a.input<float>("x");
  const float* w = a.input<float>("weight");
  const float* bias = a.input<float>("bias");
  float* y = a.output<float>("output");
  switch (K) {
    case 1: return launch_k<1>(x, w, bias, y, B, L, D, s);
    case 2: return launch_k<2>(x, w, bias, y, B, L, D, s);
    case 3: return launch_k<3>(x, w, bias, y, B, L, D, s);
    case 4: return launch_k<4>(x, w, bias, y, B, L, D, s);
    case 5: return launch_k<5>(x, w, bias, y, B, L, D, s);
    case 6: return launch_k<6>(x, w, bias, y, B, L, D, s);
    case 7: return launch_k<7>(x, w, bias, y, B, L, D, s);
    case 8: return launch_k<8>(x, w, bias, y, B, L, D, s);
    default: JUDGE_THROW(judge::Error, "reference '{}': K = {} is outside 1..8 (the spec's constraints)", kId, K);
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t B = a.scalar<int>("B"), L = a.scalar<int>("L"), D = a.scalar<int>("D"), K = a.scalar<int>("K");
  const float* x = a.input<float>("x");
  const float* w = a.input<float>("weight");
  const float* bias = a.input<float>("bias");
  double* y = a.output("output");
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t l = 0; l < L; ++l)
      for (std::int64_t d = 0; d < D; ++d) {
        double acc = bias[d];
        for (std::int64_t k = 0; k < K && k <= l; ++k) acc += double(w[d * K + k]) * double(x[(b * L + l - k) * D + d]);
        y[(b * L + l) * D + d] = acc;
      }
}

}  // namespace

JUDGE_REFERENCE(causal_depthwise_conv1d, gpu, cpu)
