#pragma once
// The sum of an inclusive box of an int32 array, shared by the references of subarray_sum, 2d_subarray_sum and
// 3d_subarray_sum: a 1D range is a box of one row, a 2D one a box of one plane.
//
// Two passes and no atomics, so a case gives the same bits on every run. The first pass splits every row of the box
// into chunks of 256 16-byte quads, one chunk per warp at a time, each lane keeping its 8 loads of the chunk in flight;
// a row's quads are those wholly inside it, aligned to the array's 16-byte grid (rows of an odd width or stride start
// anywhere), and its at most 3 + 3 leftover elements at either end are read one by one. Only elements inside the box
// are read. The second pass is one block over the per-block sums.
//
// Sums are kept in unsigned 32-bit integers: addition modulo 2^32 gives the same result in every order, and that
// result, read as an int, is the exact sum whenever the sum fits an int (always, under the challenges' constraints),
// and otherwise what LeetGPU's int64 sum stored into an int32 output holds.
#include <cstdint>

#include "judge/core/base/error.hpp"
#include "reference/reference_util.cuh"

namespace judge::ref {

// The box: planes x rows x width elements; its element (p, r, c) is
//   in[origin + p * plane_stride + r * row_stride + c].
struct IntBox {
  std::int64_t origin = 0;
  std::int64_t plane_stride = 0;
  std::int64_t row_stride = 0;
  std::int64_t planes = 1;
  std::int64_t rows = 1;
  std::int64_t width = 1;
};

namespace detail {

constexpr int kBoxQuadsPerLane = 8;
constexpr int kBoxChunkQuads = 32 * kBoxQuadsPerLane;
constexpr int kBoxWarps = kBlock / 32;
constexpr int kMaxBoxSumBlocks = 2048;

// Everything below has internal linkage (static), like the partial sums: each of the three reference files gets its
// own copy, so they link together without clashing. References run one case at a time, so one array suffices.
static __device__ unsigned box_sum_partials[kMaxBoxSumBlocks];

// shift: the input's offset from the 16-byte grid, in elements: element e starts a quad when (e + shift) % 4 == 0.
// chunks: chunks per row (every row gets as many, the last ones of a row may be empty);
// items: planes * rows * chunks, below 2^31 so that item + warps cannot wrap.
static __global__ void box_sum_blocks_kernel(const int* in, IntBox box, unsigned shift, unsigned chunks,
                                             unsigned items) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warps = gridDim.x * kBoxWarps;
  const unsigned rows = static_cast<unsigned>(box.rows);
  unsigned acc = 0;
  for (unsigned item = blockIdx.x * kBoxWarps + threadIdx.x / 32; item < items; item += warps) {
    const unsigned row = item / chunks, chunk = item - row * chunks;
    const unsigned plane = row / rows, r = row - plane * rows;
    const std::int64_t a = box.origin + plane * box.plane_stride + r * box.row_stride, b = a + box.width;
    // Whole quads [qa, qb) in quad units of the 16-byte grid; element of quad q: 4 * q - shift.
    const std::int64_t qa = (a + shift + 3) / 4, qb = (b + shift) / 4;
    const std::int64_t nq = qb - qa;
    const std::int64_t first = std::int64_t(chunk) * kBoxChunkQuads + lane;
    int4 v[kBoxQuadsPerLane];
#pragma unroll
    for (int j = 0; j < kBoxQuadsPerLane; ++j) {
      const std::int64_t q = first + 32 * j;
      v[j] = q < nq ? *reinterpret_cast<const int4*>(in + 4 * (qa + q) - shift) : make_int4(0, 0, 0, 0);
    }
#pragma unroll
    for (int j = 0; j < kBoxQuadsPerLane; ++j)
      acc += unsigned(v[j].x) + unsigned(v[j].y) + unsigned(v[j].z) + unsigned(v[j].w);
    if (chunk == 0 && lane < 6) {
      // The head [a, head_end) and the tail [tail_start, b), at most 3 elements each, outside the whole quads.
      const std::int64_t quads_from = 4 * qa - shift, quads_to = 4 * qb - shift;
      const std::int64_t head_end = quads_from < b ? quads_from : b;
      const std::int64_t tail_start = quads_to > head_end ? quads_to : head_end;
      const std::int64_t e = lane < 3 ? a + lane : tail_start + (lane - 3);
      if (e < (lane < 3 ? head_end : b)) acc += unsigned(in[e]);
    }
  }
  const unsigned total = block_reduce(acc, Sum{});
  if (threadIdx.x == 0) box_sum_partials[blockIdx.x] = total;
}

static __global__ void box_sum_final_kernel(int* out, int blocks) {
  const unsigned total = block_reduce_array(box_sum_partials, blocks, 0u, Sum{});
  if (threadIdx.x == 0) out[0] = static_cast<int>(total);
}

}  // namespace detail

// Launches, on `stream`, out[0] = the sum of `in` over `box` (which must be non-empty and inside the array).
static void box_sum(const char* challenge, const int* in, const IntBox& box, int* out, cudaStream_t stream) {
  const std::int64_t whole_quads = box.width / 4;  // no row holds more
  const std::int64_t chunks = whole_quads > 0 ? (whole_quads + detail::kBoxChunkQuads - 1) / detail::kBoxChunkQuads : 1;
  const std::int64_t items = box.planes * box.rows * chunks;
  if (items >= (std::int64_t(1) << 31))
    JUDGE_THROW(Error, "reference '{}': a box of {} x {} x {} elements is too large for box_sum", challenge,
                box.planes, box.rows, box.width);
  // An int* is 4-byte aligned, so the offset from the 16-byte grid is a whole number of elements.
  const unsigned shift = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) / 4 % 4);
  static const unsigned resident = resident_blocks(detail::box_sum_blocks_kernel, kBlock, challenge);
  const unsigned cap = resident < detail::kMaxBoxSumBlocks ? resident : unsigned(detail::kMaxBoxSumBlocks);
  const unsigned blocks = grid_for(items, detail::kBoxWarps, cap);
  detail::box_sum_blocks_kernel<<<blocks, kBlock, 0, stream>>>(in, box, shift, static_cast<unsigned>(chunks),
                                                               static_cast<unsigned>(items));
  check_launch(challenge, "box_sum_blocks_kernel");
  detail::box_sum_final_kernel<<<1, kBlock, 0, stream>>>(out, static_cast<int>(blocks));
  check_launch(challenge, "box_sum_final_kernel");
}

// For CPU references: the same sum, element by element, in 64 bits, stored as the int32 the GPU writes.
static double box_sum_cpu(const int* in, const IntBox& box) {
  std::int64_t sum = 0;
  for (std::int64_t p = 0; p < box.planes; ++p)
    for (std::int64_t r = 0; r < box.rows; ++r)
      for (std::int64_t c = 0; c < box.width; ++c)
        sum += in[box.origin + p * box.plane_stride + r * box.row_stride + c];
  return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(sum)));
}

}  // namespace judge::ref
