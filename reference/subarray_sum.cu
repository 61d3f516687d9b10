// Reference for challenges/subarray_sum: output[0] = input[S] + ... + input[E] (both ends included), by
// judge::ref::box_sum over a box of one row (two passes, no atomics, only the range read).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/subarray_sum.cuh"

namespace {

constexpr const char* kId = "subarray_sum";

judge::ref::IntBox range(const judge::ArgTable& a) {
  const auto v = [&](const char* name) { return static_cast<std::int64_t>(a.scalar_value(name)); };
  judge::ref::IntBox box;
  box.origin = v("S");
  box.width = v("E") - v("S") + 1;
  return box;
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  judge::ref::box_sum(kId, a.input<int>("input"), range(a), a.output<int>("output"), s);
}

void cpu(judge::HostArgs& a) { a.output("output")[0] = judge::ref::box_sum_cpu(a.input<int>("input"), range(a)); }

}  // namespace

JUDGE_REFERENCE(subarray_sum, gpu, cpu)
