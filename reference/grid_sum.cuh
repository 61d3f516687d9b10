#pragma once
// The deterministic sum of the reduction references (dot_product, mean_squared_error, count_array_element,
// monte_carlo_integration): two passes and no atomics, so a case gives the same bits on every run. The first pass is a
// grid of exactly as many blocks as the GPU holds at once (so the loads never wait on a second wave), each thread
// keeping two 16-byte vectors in flight, and writes one sum per block; the second is one block over those sums.
#include <cstdint>

#include "reference/reference_util.cuh"

namespace judge::ref {

constexpr int kMaxGridSumBlocks = 2048;

namespace detail {

// The per-block sums between the passes. Internal linkage, so one array per reference file; references run one case
// at a time, so that one suffices.
template <class T>
static __device__ T grid_sum_partials[kMaxGridSumBlocks];

template <class T, class Term>
__global__ void grid_sum_blocks_kernel(Term term, std::int64_t n, bool vec) {
  const std::int64_t first = blockIdx.x * std::int64_t(kBlock) + threadIdx.x;
  const std::int64_t stride = std::int64_t(gridDim.x) * kBlock;
  T acc = 0;
  std::int64_t scalar_from = 0;
  if (vec) {
    const std::int64_t n4 = n / 4;
    std::int64_t i = first;
    for (; i + stride < n4; i += 2 * stride) acc += term.quad(i) + term.quad(i + stride);
    if (i < n4) acc += term.quad(i);
    scalar_from = 4 * n4;
  }
  for (std::int64_t i = scalar_from + first; i < n; i += stride) acc += term(i);
  const T total = block_reduce(acc, Sum{});
  if (threadIdx.x == 0) grid_sum_partials<T>[blockIdx.x] = total;
}

template <class T, class Finish>
__global__ void grid_sum_final_kernel(Finish finish, int blocks) {
  const T total = block_reduce_array(grid_sum_partials<T>, blocks, T(0), Sum{});
  if (threadIdx.x == 0) finish(total);
}

}  // namespace detail

// Launches, on `stream`, the sum in T of term over [0, n), then finish(sum) in one thread, which writes the result.
//   term: a functor struct (it is copied to the device) with
//     __device__ T quad(std::int64_t q) const        the sum of the terms of elements 4q .. 4q + 3, read as one
//                                                     16-byte vector from each input (called only when vec);
//     __device__ T operator()(std::int64_t i) const  the term of element i alone.
//   vec: every input is 16-byte aligned (aligned16), so the first 4 * (n / 4) elements may go through quad.
//   finish: a functor struct with __device__ void operator()(T sum) const.
// n <= 0 is a sum of 0, still passed to finish.
template <class T, class Term, class Finish>
void grid_sum(const char* challenge, const Term& term, std::int64_t n, bool vec, const Finish& finish,
              cudaStream_t stream) {
  static const unsigned resident = resident_blocks(detail::grid_sum_blocks_kernel<T, Term>, kBlock, challenge);
  // One thread per 16-byte vector is the most parallelism the first pass can use.
  const unsigned blocks =
      grid_for((n + 3) / 4, kBlock, resident < kMaxGridSumBlocks ? resident : unsigned(kMaxGridSumBlocks));
  detail::grid_sum_blocks_kernel<T><<<blocks, kBlock, 0, stream>>>(term, n, vec);
  check_launch(challenge, "grid_sum_blocks_kernel");
  detail::grid_sum_final_kernel<T><<<1, kBlock, 0, stream>>>(finish, static_cast<int>(blocks));
  check_launch(challenge, "grid_sum_final_kernel");
}

}  // namespace judge::ref
