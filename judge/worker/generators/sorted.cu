// "sorted": non-decreasing values spread over [low, high) (integers: [low, high]): element i lies in the i-th of
// count equal slices of the range, at a random place inside it. For searches, merges and "input is sorted" tasks.
#include <cmath>

#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

struct Sorted {
  double low, width, n;
  std::uint64_t key;
  bool integral;
  JUDGE_HD double operator()(std::int64_t i) const {
    double v = low + width * ((static_cast<double>(i) + unit(key, i)) / n);
    return integral ? floor(v) : v;
  }
};

void sorted(const GeneratorCall& c) {
  bool whole = integral(c);
  double width = c.dist.high - c.dist.low + (whole ? 1.0 : 0.0);
  fill(c, Sorted{c.dist.low, width, static_cast<double>(c.count), c.key, whole});
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(sorted, judge::gen::sorted)
