// Reference for challenges/3d_subarray_sum: output[0] = the sum of input[d][r][c] over S_DEP <= d <= E_DEP,
// S_ROW <= r <= E_ROW and S_COL <= c <= E_COL of the row-major N x M x K input, by judge::ref::box_sum (two passes,
// no atomics, only the box read).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/subarray_sum.cuh"

namespace {

constexpr const char* kId = "3d_subarray_sum";

judge::ref::IntBox box_of(const judge::ArgTable& a) {
  const auto v = [&](const char* name) { return static_cast<std::int64_t>(a.scalar_value(name)); };
  judge::ref::IntBox box;
  box.row_stride = v("K");
  box.plane_stride = v("M") * box.row_stride;
  box.origin = v("S_DEP") * box.plane_stride + v("S_ROW") * box.row_stride + v("S_COL");
  box.planes = v("E_DEP") - v("S_DEP") + 1;
  box.rows = v("E_ROW") - v("S_ROW") + 1;
  box.width = v("E_COL") - v("S_COL") + 1;
  return box;
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  judge::ref::box_sum(kId, a.input<int>("input"), box_of(a), a.output<int>("output"), s);
}

void cpu(judge::HostArgs& a) { a.output("output")[0] = judge::ref::box_sum_cpu(a.input<int>("input"), box_of(a)); }

}  // namespace

JUDGE_REFERENCE(3d_subarray_sum, gpu, cpu)
