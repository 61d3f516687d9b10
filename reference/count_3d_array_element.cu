// Reference for challenges/count_3d_array_element: output[0] = how many elements of the row-major N x M x K input
// equal P. The planes and rows are contiguous, so it is the 1D count of N * M * K elements
// (reference/count_array_element.cuh).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/count_array_element.cuh"

namespace {

constexpr const char* kId = "count_3d_array_element";

std::int64_t elements(const judge::ArgTable& a) {
  const auto v = [&](const char* name) { return static_cast<std::int64_t>(a.scalar_value(name)); };
  return v("N") * v("M") * v("K");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  judge::ref::count_equal(kId, a.input<int>("input"), elements(a), a.scalar<int>("P"), a.output<int>("output"), s);
}

void cpu(judge::HostArgs& a) {
  a.output("output")[0] =
      static_cast<double>(judge::ref::count_equal_cpu(a.input<int>("input"), elements(a), a.scalar<int>("P")));
}

}  // namespace

JUDGE_REFERENCE(count_3d_array_element, gpu, cpu)
