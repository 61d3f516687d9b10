#pragma once
// How many int32 values equal a given one, shared by the references of count_2d_array_element and
// count_3d_array_element: a row-major N x M or N x M x K array is one contiguous run of elements, so its count is
// that of a 1D array, taken like count_array_element's by judge::ref::grid_sum (two passes, no atomics, counted in
// integers, 16-byte loads where the input is aligned).
//
// Everything here has internal linkage (an anonymous namespace) on purpose: each reference file then instantiates
// grid_sum's kernels with its own functor types, and those kernels use that file's own grid_sum_partials, so the
// files link together without two modules registering one kernel.
#include <cstdint>

#include "reference/grid_sum.cuh"

namespace judge::ref {
namespace {

struct CountMatches {
  const int* in;
  int value;
  __device__ int quad(std::int64_t q) const {
    const int4 v = reinterpret_cast<const int4*>(in)[q];
    return (v.x == value) + (v.y == value) + (v.z == value) + (v.w == value);
  }
  __device__ int operator()(std::int64_t i) const { return in[i] == value; }
};

struct StoreCount {
  int* out;
  __device__ void operator()(int count) const { out[0] = count; }
};

// Launches, on `stream`, out[0] = the number of i in [0, n) with in[i] == value. n < 2^31, so the count fits an int.
void count_equal(const char* challenge, const int* in, std::int64_t n, int value, int* out, cudaStream_t stream) {
  grid_sum<int>(challenge, CountMatches{in, value}, n, aligned16(in), StoreCount{out}, stream);
}

std::int64_t count_equal_cpu(const int* in, std::int64_t n, int value) {
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < n; ++i) count += in[i] == value;
  return count;
}

}  // namespace
}  // namespace judge::ref
