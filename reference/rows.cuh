#pragma once
// Pieces of the row-wise references (layer_normalization, token_embedding_layer, fused_residual_add_rms_norm,
// softmax_rows, multi_head_attention) that give each row of up to a few thousand floats to kThreads threads (one warp,
// or whole warps: kBlock / kThreads rows a block) and keep the row in registers, so that it is read from memory once:
// the shapes a reference picks from by row length, the loads and stores of a thread's share of a row, the reductions
// over the threads of a row, and the row statistics more than one reference computes from its registers.
#include <cmath>
#include <cstdint>

#include "reference/reference_util.cuh"

namespace judge::ref {

// Where this thread stands in a kernel that gives each row to kThreads threads (kBlock / kThreads rows a block): its
// lane among its row's threads, its row, and whether that row is one of the `rows` (live). A thread whose row is not
// live still takes part in the barriers of row_reduce.
struct RowThread {
  int lane;
  std::int64_t row;
  bool live;
};
template <int kThreads>
__device__ RowThread row_thread(std::int64_t rows) {
  const std::int64_t row = std::int64_t(blockIdx.x) * (kBlock / kThreads) + threadIdx.x / kThreads;
  return {static_cast<int>(threadIdx.x % kThreads), row, row < rows};
}

// This thread's share of a row of n floats: kItems groups of kVec consecutive elements (kVec = 4: one float4 each,
// which needs n % 4 == 0 and a 16-byte aligned row), group i starting at element (i * kThreads + lane) * kVec.
// Elements past the end of the row, and all of a row that is not live, are `fill`.
template <int kThreads, int kVec, int kItems, class T>
__device__ void load_row(const float* row, int n, bool live, int lane, T (&v)[kItems][kVec], T fill) {
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
    if (live && j < n) {
      if constexpr (kVec == 4) {
        const float4 q = *reinterpret_cast<const float4*>(row + j);
        v[i][0] = q.x, v[i][1] = q.y, v[i][2] = q.z, v[i][3] = q.w;
      } else {
        v[i][0] = row[j];
      }
    } else {
#pragma unroll
      for (int k = 0; k < kVec; ++k) v[i][k] = fill;
    }
  }
}

// op over the kThreads consecutive threads that share a row (one warp, or whole warps: kBlock / kThreads rows a block),
// starting from init; every one of them gets the same result (the xor butterfly pairs the same operands on both sides
// of each exchange, and the warps' values are combined in index order). Every thread of the block must call it: a row
// wider than a warp needs barriers. scratch: kBlock / 32 values in shared memory, free again when it returns.
template <int kThreads, class T, class Op>
__device__ T row_reduce(T v, T* scratch, T init, Op op) {
  for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if constexpr (kThreads == 32) {
    return v;
  } else {
    if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
    __syncthreads();
    const int first = threadIdx.x / kThreads * (kThreads / 32);
    T r = init;
    for (int i = 0; i < kThreads / 32; ++i) r = op(r, scratch[first + i]);
    __syncthreads();  // scratch is reused by the next call
    return r;
  }
}

// kVec consecutive floats from p into g: one float4 load (p 16-byte aligned) when kVec == 4, else one float. Through
// the read-only cache (__ldg): for arrays the kernel does not write, such as a normalisation's weights.
template <int kVec>
__device__ __forceinline__ void load_group(const float* p, float (&g)[kVec]) {
  if constexpr (kVec == 4) {
    const float4 q = __ldg(reinterpret_cast<const float4*>(p));
    g[0] = q.x, g[1] = q.y, g[2] = q.z, g[3] = q.w;
  } else {
    g[0] = __ldg(p);
  }
}

// The store that matches load_row: for each group i of this thread's share of a live row (kVec consecutive elements
// from j = (i * kThreads + lane) * kVec, within the row's n), out(i, j, o) fills float o[kVec], which is written to
// row + j as one float4 (kVec == 4) or one float. Nothing is written past the row or for a row that is not live.
template <int kThreads, int kVec, int kItems, class Out>
__device__ __forceinline__ void store_row(float* row, int n, bool live, int lane, Out out) {
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
    if (!live || j >= n) continue;
    float o[kVec];
    out(i, j, o);
    if constexpr (kVec == 4)
      *reinterpret_cast<float4*>(row + j) = make_float4(o[0], o[1], o[2], o[3]);
    else
      row[j] = o[0];
  }
}

// The maximum of a row of floats held as load_row leaves it (filled with -INFINITY), in every thread of the row.
// scratch: as row_reduce's.
template <int kThreads, int kVec, int kItems>
__device__ float row_max(const float (&v)[kItems][kVec], float* scratch) {
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
#pragma unroll
    for (int k = 0; k < kVec; ++k) m = fmaxf(m, v[i][k]);
  return row_reduce<kThreads>(m, scratch, -INFINITY, Max{});
}

// Layer normalisation's statistics of a row of n values held in double as load_row leaves it (0 past the row and in
// a row that is not live): the mean, a fixed-order sum over the row, is subtracted from v in place, and the result is
// 1 / sqrt(var + eps), var the population variance summed from those deviations (a second pass over the registers,
// so nothing cancels). scratch: as row_reduce's.
template <int kThreads, int kVec, int kItems>
__device__ double centre_row(double (&v)[kItems][kVec], int n, int lane, double eps, double* scratch) {
  double s = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
#pragma unroll
    for (int k = 0; k < kVec; ++k) s += v[i][k];
  const double mean = row_reduce<kThreads>(s, scratch, 0.0, Sum{}) / n;

  double ss = 0.0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = (i * kThreads + lane) * kVec;
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      const double d = v[i][k] - mean;
      v[i][k] = d;
      if (j < n) ss += d * d;
    }
  }
  const double var = row_reduce<kThreads>(ss, scratch, 0.0, Sum{}) / n;
  return 1.0 / sqrt(var + eps);
}

// A kernel shape for rows of up to kMaxN elements: kThreads threads a row, each holding kItems groups of kVec.
template <int kThreads_, int kVec_, int kItems_>
struct RowShape {
  static constexpr int kThreads = kThreads_, kVec = kVec_, kItems = kItems_;
  static constexpr int kMaxN = kThreads * kVec * kItems;
};

// A ladder of RowShapes, narrowest first.
template <class... Shapes>
struct RowShapes {};

// Blocks of kBlock threads for `rows` rows at kBlock / kThreads rows a block.
template <int kThreads>
unsigned row_blocks(std::int64_t rows) {
  constexpr int rows_per_block = kBlock / kThreads;
  return static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
}

// Calls launch(Shape{}) with the first of Shapes whose rows hold n elements; false when none does.
template <class... Shapes, class Launch>
bool launch_row_shape(RowShapes<Shapes...>, int n, Launch&& launch) {
  return ((n <= Shapes::kMaxN && (launch(Shapes{}), true)) || ...);
}

// Launches, on `stream`, the kernel kernel_for(Shape{}) returns (a __global__ function of one RowShape, taking args)
// for the first Shape that holds rows of n elements, from the ladder Vec4 (kVec = 4: rows with n % 4 == 0 and 16-byte
// aligned arrays) when vec4, else from Scalar (kVec = 1); row_blocks<Shape::kThreads>(rows) blocks of kBlock threads.
// The launch is checked, `kernel` naming it in the error. False, launching nothing, when no shape holds the row (rows
// too long for the registers: the caller's fallback).
template <class Vec4, class Scalar, class KernelFor, class... Args>
bool launch_rows(const char* challenge, const char* kernel, bool vec4, int n, std::int64_t rows, cudaStream_t stream,
                 KernelFor kernel_for, Args... args) {
  const auto launch = [&](auto shape) {
    const auto k = kernel_for(shape);
    k<<<row_blocks<decltype(shape)::kThreads>(rows), kBlock, 0, stream>>>(args...);
    check_launch(challenge, kernel);
  };
  return vec4 ? launch_row_shape(Vec4{}, n, launch) : launch_row_shape(Scalar{}, n, launch);
}

// The ladders of the layer-normalisation references (layer_normalization, token_embedding_layer; with one more float4
// shape, fused_residual_add_rms_norm): rows of up to 4096 elements.
using NormVec4Shapes = RowShapes<RowShape<32, 4, 1>, RowShape<32, 4, 4>, RowShape<128, 4, 2>, RowShape<256, 4, 4>>;
using NormScalarShapes = RowShapes<RowShape<32, 1, 1>, RowShape<32, 1, 8>, RowShape<256, 1, 4>, RowShape<256, 1, 16>>;

}  // namespace judge::ref
