// Reference for challenges/2d_subarray_sum: output[0] = the sum of input[r][c] over S_ROW <= r <= E_ROW and
// S_COL <= c <= E_COL of the row-major N x M input, by judge::ref::box_sum over a box of one plane (two passes, no
// atomics, only the box read).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/subarray_sum.cuh"

namespace {

constexpr const char* kId = "2d_subarray_sum";

judge::ref::IntBox box_of(const judge::ArgTable& a) {
  const auto v = [&](const char* name) { return static_cast<std::int64_t>(a.scalar_value(name)); };
  judge::ref::IntBox box;
  box.row_stride = v("M");
  box.origin = v("S_ROW") * box.row_stride + v("S_COL");
  box.rows = v("E_ROW") - v("S_ROW") + 1;
  box.width = v("E_COL") - v("S_COL") + 1;
  return box;
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  judge::ref::box_sum(kId, a.input<int>("input"), box_of(a), a.output<int>("output"), s);
}

void cpu(judge::HostArgs& a) { a.output("output")[0] = judge::ref::box_sum_cpu(a.input<int>("input"), box_of(a)); }

}  // namespace

JUDGE_REFERENCE(2d_subarray_sum, gpu, cpu)
