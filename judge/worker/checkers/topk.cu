// "topk": the output must hold the k largest values of the input in descending order; the reference's output is
// exactly that. Values are compared within the tolerance. With ties at the k-th value any of the tied elements may
// be chosen: only values are compared, so every choice gives the same output. The diagnosis separates "the right
// values in the wrong order" from "wrong values" (and names a value that is missing).
#include <algorithm>
#include <functional>

#include "judge/core/base/error.hpp"
#include "judge/worker/check.hpp"

namespace judge {
namespace {

constexpr std::int64_t kHostLimit = std::int64_t{1} << 26;  // k beyond this is not a top-k output

OutputCheck topk(const CheckRequest& q) {
  OutputCheck r = compare_output(q);
  if (r.mismatches == 0 || r.unwritten > 0 || r.non_finite > 0 || q.count > kHostLimit) return r;
  std::vector<double> got = download_as_double(q.got, q.dtype, q.count, q.stream);
  std::vector<double> want = download_as_double(q.expected, q.dtype, q.count, q.stream);
  std::vector<double> got_sorted = got;
  std::sort(got_sorted.begin(), got_sorted.end(), std::greater<double>());
  std::sort(want.begin(), want.end(), std::greater<double>());
  std::int64_t differ = 0, first = -1;
  for (std::int64_t i = 0; i < q.count; ++i)
    if (!element_matches(got_sorted[i], want[i], q.tol)) {
      ++differ;
      if (first < 0) first = i;
    }
  if (differ == 0) {
    std::int64_t i = 0;
    while (i + 1 < q.count && !(got[i] < got[i + 1])) ++i;
    r.message = fmt::format("{} holds the right {} values but not in descending order: {}[{}] = {:.9g} < {}[{}] = "
                            "{:.9g}",
                            q.name, q.count, q.name, i, got[i], q.name, i + 1, got[i + 1]);
    return r;
  }
  r.message = fmt::format("{} is not the {} largest values of the input: sorted in descending order, {} of them "
                          "differ; at position {} the value should be {:.9g}, got {:.9g}",
                          q.name, q.count, differ, first, want[first], got_sorted[first]);
  return r;
}

}  // namespace
}  // namespace judge

JUDGE_CHECKER(topk, judge::topk)
