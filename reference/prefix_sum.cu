// Reference for challenges/prefix_sum: output[i] = input[0] + ... + input[i] (inclusive scan), accumulated in double
// and rounded once to float per element. A float32 scan of millions of elements drifts (its error grows with the
// length of the chain of additions behind each prefix); the double scan is the exact answer to within float rounding.
//
// CUB's single-pass scan (decoupled look-back) reads each input once and writes each output once, so it runs at
// memory speed. InclusiveScanInit with a double initial value makes the accumulator double while input and output
// stay plain float pointers: CUB loads floats (vectorised), adds in double and rounds each prefix to float on store,
// so no double array is ever materialised. (Transform iterators would do the same conversions but keep CUB from
// vectorising its loads: 64% of copy bandwidth instead of ~85% on an H100.) The look-back may combine tile totals in
// a different order from run to run; in double that changes a prefix by about 1e-16 of its size, which survives the
// rounding to float only in the rare exact-tie case.
#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "judge/worker/reference.hpp"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "prefix_sum";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("N");
  if (n <= 0) return;
  const float* in = a.input<float>("input");
  float* out = a.output<float>("output");
  static judge::ref::Scratch temp(kId, "temp storage");
  temp.run_cub("cub::DeviceScan::InclusiveScanInit", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveScanInit(storage, bytes, in, out, cuda::std::plus<>{}, 0.0, n, s);
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
