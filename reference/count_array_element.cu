// Reference for challenges/count_array_element: output[0] = how many input[i] equal K, counted in integers by
// judge::ref::grid_sum (two passes, no atomics).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/grid_sum.cuh"

namespace {

constexpr const char* kId = "count_array_element";

__device__ int matches4(int4 v, int k) { return (v.x == k) + (v.y == k) + (v.z == k) + (v.w == k); }

struct Matches {
  const int* in;
  int k;
  __device__ int quad(std::int64_t q) const { return matches4(reinterpret_cast<const int4*>(in)[q], k); }
  __device__ int operator()(std::int64_t i) const { return in[i] == k; }
};

struct StoreCount {
  int* out;
  __device__ void operator()(int count) const { out[0] = count; }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  const int k = a.scalar<int>("K");
  const int* in = a.input<int>("input");
  // N < 2^31, so every count fits an int.
  judge::ref::grid_sum<int>(kId, Matches{in, k}, n, judge::ref::aligned16(in), StoreCount{a.output<int>("output")}, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const int k = a.scalar<int>("K");
  const int* in = a.input<int>("input");
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < n; ++i) count += in[i] == k;
  a.output("output")[0] = static_cast<double>(count);
}

}  // namespace

JUDGE_REFERENCE(count_array_element, gpu, cpu)
