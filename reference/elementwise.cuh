#pragma once
// The element-wise skeleton of the memory-bound references (relu, leaky_relu, sigmoid, silu, swiglu, geglu,
// matrix_copy, matrix_addition). Those references are the yardsticks submissions are timed against, and this shape
// measured 96-100% of copy bandwidth on an H200: a grid-stride loop of 16-byte loads and stores when every pointer is
// 16-byte aligned, then the last n % 4 elements one at a time (all of them, with 4-byte accesses, when a pointer is
// not), kBlock threads a block and grid_for's cap. Changing any of that here moves every one of those yardsticks.
// map_halves_cpu is the CPU reference loop of the gated pair (swiglu, geglu).
#include <cstdint>
#include <type_traits>

#include "reference/reference_util.cuh"

namespace judge::ref {
namespace detail {

// By value: with references the float4s stayed in memory long enough that the loop was no longer unrolled as the
// hand-written references' loops were.
template <class Op, class... V>
__device__ __forceinline__ float4 map4(Op op, V... v) {
  return make_float4(op(v.x...), op(v.y...), op(v.z...), op(v.w...));
}

template <bool kVector, class Op, class... In>
__global__ void map_kernel(Op op, std::int64_t n, float* __restrict__ out, const In* __restrict__... in) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  std::int64_t done = 0;
  if constexpr (kVector) {
    const std::int64_t n4 = n / 4;
    for (std::int64_t i = first; i < n4; i += stride)
      reinterpret_cast<float4*>(out)[i] = map4(op, reinterpret_cast<const float4*>(in)[i]...);
    done = 4 * n4;
  }
  for (std::int64_t i = done + first; i < n; i += stride) out[i] = op(in[i]...);
}

}  // namespace detail

// out[i] = op(in[i]...) for i in [0, n), on `stream`. op is a functor struct with a __device__ float
// operator()(float...) taking one float per input; it is applied to each element on its own, so its numerics are those
// of a scalar call whichever path runs. The arrays must not overlap (they are __restrict__: the loads may go through
// the read-only cache).
template <class Op, class... In>
void map_elementwise(const char* challenge, const Op& op, std::int64_t n, cudaStream_t stream, float* out,
                     const In*... in) {
  static_assert((std::is_same_v<In, float> && ...), "map_elementwise maps float arrays");
  if (aligned16(out, in...)) {
    detail::map_kernel<true><<<grid_for((n + 3) / 4), kBlock, 0, stream>>>(op, n, out, in...);
  } else {
    detail::map_kernel<false><<<grid_for(n), kBlock, 0, stream>>>(op, n, out, in...);
  }
  check_launch(challenge, "map_elementwise kernel");
}

// out[i] = op(in[i], in[half + i]) for i in [0, half), half = n / 2: the gated activations (swiglu, geglu), whose
// input holds the two operands one after the other. The float4 path needs half % 4 == 0, so that the second half
// starts 16-byte aligned too.
template <class Op>
void map_halves(const char* challenge, const Op& op, std::int64_t n, cudaStream_t stream, float* out,
                const float* in) {
  const std::int64_t half = n / 2;
  if (half > 0) map_elementwise(challenge, op, half, stream, out, in, in + half);
}

// map_halves's CPU reference: out[i] = op(x1, x2) with x1 = in[i] and x2 = in[half + i] as doubles, for i in
// [0, half), half = n / 2. op: double operator()(double, double), in double throughout.
template <class Op>
void map_halves_cpu(const Op& op, std::int64_t n, double* out, const float* in) {
  const std::int64_t half = n / 2;
  for (std::int64_t i = 0; i < half; ++i) out[i] = op(double(in[i]), double(in[half + i]));
}

}  // namespace judge::ref
