// Reference for challenges/prefix_sum: output[i] = input[0] + ... + input[i] (inclusive scan), accumulated in double
// and rounded once to float per element. A float32 scan of millions of elements drifts (its error grows with the
// length of the chain of additions behind each prefix); the double scan is the exact answer to within float rounding.
//
// CUB's single-pass scan (decoupled look-back) reads each input once and writes each output once, so it runs at
// memory speed. The conversions happen on the fly: a transform iterator widens each float to double on load, and a
// transform output iterator rounds each double prefix to float on store, so no double array is ever materialised.
// The look-back may combine tile totals in a different order from run to run; in double that changes a prefix by
// about 1e-16 of its size, which survives the rounding to float only in the rare exact-tie case.
#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "judge/worker/reference.hpp"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "prefix_sum";

struct ToDouble {
  __host__ __device__ double operator()(float x) const { return static_cast<double>(x); }
};
struct ToFloat {
  __host__ __device__ float operator()(double x) const { return static_cast<float>(x); }
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("N");
  if (n <= 0) return;
  auto in = thrust::make_transform_iterator(a.input<float>("input"), ToDouble{});
  auto out = thrust::make_transform_output_iterator(a.output<float>("output"), ToFloat{});
  static judge::ref::Scratch temp(kId, "temp storage");
  temp.run_cub("cub::DeviceScan::InclusiveSum", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(storage, bytes, in, out, n, s);
  });
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  double acc = 0.0;
  for (std::int64_t i = 0; i < n; ++i) y[i] = acc += static_cast<double>(x[i]);
}

}  // namespace

JUDGE_REFERENCE(prefix_sum, gpu, cpu)
