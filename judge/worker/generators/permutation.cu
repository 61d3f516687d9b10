// "permutation": element i is low + p(i) for a random permutation p of [0, count): every value of
// low .. low + count - 1 exactly once. For scatter/gather indices and "each index once" inputs.
#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

struct Permuted {
  Permutation p;
  double low;
  JUDGE_HD double operator()(std::int64_t i) const { return low + static_cast<double>(p(static_cast<std::uint64_t>(i))); }
};

void permutation(const GeneratorCall& c) {
  double last = c.dist.low + static_cast<double>(c.count - 1);
  if (is_integer(c.dtype) && last > max_value(c.dtype))
    JUDGE_THROW(Error, "generator 'permutation': values up to {} do not fit {}", last, to_string(c.dtype));
  fill(c, Permuted{Permutation(static_cast<std::uint64_t>(c.count), c.key), c.dist.low});
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(permutation, judge::gen::permutation)
