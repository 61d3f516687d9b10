#pragma once
// Pieces of the row-wise references (layer_normalization, softmax_rows) that give each row of up to a few thousand
// floats to kThreads threads (one warp, or whole warps: kBlock / kThreads rows a block) and keep the row in registers,
// so that it is read from memory once.
#include "reference/reference_util.cuh"

namespace judge::ref {

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

}  // namespace judge::ref
