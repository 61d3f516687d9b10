// Reference for challenges/sorting: data sorted ascending, in place. CUB's radix sort (onesweep: one histogram pass,
// then one scatter pass per 8-bit digit) orders floats by value: it flips the bits of negative numbers and the sign
// bit of the others, so negatives come first and in the right order, and it treats -0.0 and +0.0 as equal (it is
// stable, so they keep their input order). Infinities sort to the ends; NaN never occurs in the inputs.
//
// Radix sort cannot work in place: it ping-pongs between the data and a scratch buffer of the same size, and the
// result lands in either. When it lands in the scratch buffer it is copied back (one extra read and write of N floats).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "judge/worker/reference.hpp"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "sorting";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int n = a.scalar<int>("N");
  if (n <= 1) return;
  static judge::ref::Scratch keys_alt(kId, "keys"), temp(kId, "temp storage");
  float* data = a.output<float>("data");  // in-out: holds the generated input on entry
  cub::DoubleBuffer<float> keys(data, keys_alt.get<float>(n));
  temp.run_cub("cub::DeviceRadixSort::SortKeys", [&](void* storage, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(storage, bytes, keys, n, 0, 32, s);
  });
  if (keys.Current() != data)
    judge::ref::check_cuda(
        cudaMemcpyAsync(data, keys.Current(), n * sizeof(float), cudaMemcpyDeviceToDevice, s), kId,
        "cudaMemcpyAsync(sorted keys back to data)");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("data");
  std::vector<float> v(x, x + n);
  std::sort(v.begin(), v.end());
  double* y = a.output("data");
  for (std::int64_t i = 0; i < n; ++i) y[i] = v[i];
}

}  // namespace

JUDGE_REFERENCE(sorting, gpu, cpu)
