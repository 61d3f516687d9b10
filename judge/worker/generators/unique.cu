// "unique": pairwise distinct values in [low, high) (integers: [low, high]), in random order: the range is cut into
// count slices, element i takes a random slice p(i) of a permutation and a point in the middle half of it, so two
// elements are at least half a slice apart and stay distinct after rounding to the dtype. For ties-free top-k,
// argmax and "keys are unique" tasks.
#include <cmath>

#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

struct Unique {
  Permutation p;
  double low, slice;
  std::uint64_t key;
  bool integral;
  JUDGE_HD double operator()(std::int64_t i) const {
    double s = static_cast<double>(p(static_cast<std::uint64_t>(i)));
    if (integral) return low + floor(s * slice);
    return low + slice * (s + 0.25 + 0.5 * unit(key, i));
  }
};

// Spacing of representable values near x in a floating dtype.
double ulp_near(DType t, double x) {
  int bits = t == DType::float32 ? 24 : t == DType::float16 ? 11 : t == DType::bfloat16 ? 8 : 53;
  return std::ldexp(1.0, std::ilogb(x == 0 ? 1.0 : x) - bits + 1);
}

void unique(const GeneratorCall& c) {
  bool whole = integral(c);
  double n = static_cast<double>(c.count);
  double width = c.dist.high - c.dist.low + (whole ? 1.0 : 0.0);
  double slice = width / n;
  if (whole && slice < 1)
    JUDGE_THROW(Error, "generator 'unique': {} distinct integers do not fit in [{}, {}]", c.count, c.dist.low,
                c.dist.high);
  double biggest = std::max(std::fabs(c.dist.low), std::fabs(c.dist.high));
  if (!whole && slice / 2 <= ulp_near(c.dtype, biggest))
    JUDGE_THROW(Error, "generator 'unique': {} distinct {} values cannot be spread over [{}, {}); widen the range",
                c.count, to_string(c.dtype), c.dist.low, c.dist.high);
  fill(c, Unique{Permutation(static_cast<std::uint64_t>(c.count), c.key), c.dist.low, slice, c.key, whole});
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(unique, judge::gen::unique)
