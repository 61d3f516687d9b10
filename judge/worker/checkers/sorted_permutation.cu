// "sorted_permutation": the output must be sorted ascending and hold exactly the input's values. The reference's
// output is the sorted input, so "a sorted permutation of the input" is "equal to the reference"; what this checker
// adds is the diagnosis: not sorted (and where the first descent is), or sorted but not the input's values.
#include <algorithm>

#include "judge/worker/check.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/element.cuh"
#include "judge/worker/readback.cuh"

namespace judge {
namespace {

struct Descents {
  unsigned long long count;
  long long first;
};

template <class T>
__global__ void descents_kernel(const T* x, std::int64_t n, Descents* out) {
  unsigned long long local = 0;
  long long first = n;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i + 1 < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    if (to_double(x[i]) > to_double(x[i + 1])) {
      ++local;
      if (i < first) first = i;
    }
  }
  if (local) {
    atomicAdd(&out->count, local);
    atomicMin(&out->first, first);
  }
}

OutputCheck sorted_permutation(const CheckRequest& q) {
  OutputCheck r = compare_output(q);
  // Passing, or failing for a reason the generic message already explains (unwritten elements, NaN/Inf).
  if (r.mismatches == 0 || r.unwritten > 0 || r.non_finite > 0) return r;
  Readback& rb = Readback::instance();
  Descents* d = rb.slot(Descents{0, q.count}, q.stream);
  std::int64_t blocks = std::clamp<std::int64_t>((q.count + 255) / 256, 1, 65535 * 8);
  visit_dtype(q.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    descents_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, q.stream>>>(static_cast<const T*>(q.got), q.count, d);
  });
  JUDGE_CUDA_CHECK(cudaGetLastError());
  const Descents got = rb.read<Descents>(q.stream);
  if (got.count > 0) {
    std::vector<double> pair = download_as_double(
        static_cast<const char*>(q.got) + got.first * static_cast<std::int64_t>(size_of(q.dtype)), q.dtype, 2,
        q.stream);
    r.message = fmt::format("{} is not sorted in ascending order: {}[{}] = {:.9g} > {}[{}] = {:.9g} ({} descent{} in "
                            "all)",
                            q.name, q.name, got.first, pair[0], q.name, got.first + 1, pair[1], got.count,
                            got.count == 1 ? "" : "s");
    return r;
  }
  const Mismatch& m = r.first.front();
  r.message = fmt::format("{} is sorted but is not a permutation of the input: {} of {} elements differ from the "
                          "sorted input; first at index {}: got {:.9g}, the sorted input has {:.9g} (values were "
                          "lost, duplicated or changed)",
                          q.name, r.mismatches, r.count, m.index, m.got, m.expected);
  return r;
}

}  // namespace
}  // namespace judge

JUDGE_CHECKER(sorted_permutation, judge::sorted_permutation)
