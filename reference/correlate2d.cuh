#pragma once
// The sliding-window pieces of the 2D cross-correlation references (2d_convolution, gaussian_blur). Both take the KH x
// KW kernel's rows MC at a time, zero-padded to kh_pad = KH rounded up to a multiple of MC, hold the kernel transposed
// (kT[n * kh_pad + m] = kernel[m][n]) and give each thread a column of RY outputs, for which it slides a window of
// RY + MC - 1 inputs down each kernel column: MC new loads feed RY * MC fused multiply-adds.
#include <type_traits>

#include "reference/reference_util.cuh"

namespace judge::ref {

// The MC that wastes least on padding, with a small preference for larger MC (fewer window loads per FMA).
inline int pick_mc(int KH) {
  int best = 1;
  double best_cost = 1e300;
  for (int mc = 8; mc >= 1; --mc) {
    const double cost = double((KH + mc - 1) / mc * mc) * (1.0 + 1.0 / mc);
    if (cost < best_cost) best_cost = cost, best = mc;
  }
  return best;
}

// Calls launch(std::integral_constant<int, MC>{}) with MC = pick_mc(KH), so that MC can be a template argument.
template <class Launch>
void with_mc(int KH, Launch&& launch) {
  switch (pick_mc(KH)) {
    case 8: launch(std::integral_constant<int, 8>{}); break;
    case 7: launch(std::integral_constant<int, 7>{}); break;
    case 6: launch(std::integral_constant<int, 6>{}); break;
    case 5: launch(std::integral_constant<int, 5>{}); break;
    case 4: launch(std::integral_constant<int, 4>{}); break;
    case 3: launch(std::integral_constant<int, 3>{}); break;
    case 2: launch(std::integral_constant<int, 2>{}); break;
    default: launch(std::integral_constant<int, 1>{}); break;
  }
}

// kT[n * kh_pad + m] = T(k[m * KW + n]) for m < KH, 0 for KH <= m < kh_pad, by the kThreads threads of the block
// (tid: this thread's index among them). The caller puts the barrier after it.
template <int kThreads, class T>
__device__ void stage_kernel_transposed(const float* k, T* kT, int KH, int KW, int kh_pad, int tid) {
  for (int i = tid; i < KW * kh_pad; i += kThreads) {
    const int n = i / kh_pad, m = i % kh_pad;
    kT[i] = m < KH ? T(k[m * KW + n]) : T(0);
  }
}

// One kernel column: acc[r] = fma(at(r + m), kcol[m], acc[r]) for m = 0 .. kh_pad - 1 in that order, r < RY, in T
// (float or double). at(q) is the input q rows below the thread's first output row, in the column this kernel column
// meets; the window w[q] = at(m0 + q) slides down MC rows at a time, so each input is loaded once.
template <int RY, int MC, class T, class At>
__device__ __forceinline__ void slide_window(At at, const T* kcol, int kh_pad, T (&acc)[RY]) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "float or double sums");
  T w[RY + MC - 1];
#pragma unroll
  for (int q = 0; q < RY - 1; ++q) w[q] = at(q);
  for (int m0 = 0; m0 < kh_pad; m0 += MC) {
#pragma unroll
    for (int q = 0; q < MC; ++q) w[RY - 1 + q] = at(m0 + RY - 1 + q);
#pragma unroll
    for (int mm = 0; mm < MC; ++mm) {
      const T kv = kcol[m0 + mm];
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        if constexpr (std::is_same_v<T, float>)
          acc[r] = fmaf(w[r + mm], kv, acc[r]);
        else
          acc[r] = fma(w[r + mm], kv, acc[r]);
      }
    }
#pragma unroll
    for (int q = 0; q < RY - 1; ++q) w[q] = w[q + MC];
  }
}

}  // namespace judge::ref
