// "sparse": zero everywhere except exactly args.nnz elements at random positions (those whose permuted index is
// below nnz), uniform in [low, high) and never zero. A dense matrix with a known number of non-zeros, as LeetGPU's
// SpMV passes it; solutions may rely on nnz being exact (e.g. to size a compressed copy).
#include "judge/worker/generators/fill.cuh"

namespace judge::gen {
namespace {

struct Sparse {
  Permutation p;
  double nnz, low, width;
  std::uint64_t key;
  bool integral;
  JUDGE_HD double operator()(std::int64_t i) const {
    if (static_cast<double>(p(static_cast<std::uint64_t>(i))) >= nnz) return 0.0;
    double v = low + width * unit(key, i);
    if (integral) v = floor(v);
    if (v == 0) v = low != 0 ? low : low + width - 1.0;  // a non-zero from the range
    return v;
  }
};

void sparse(const GeneratorCall& c) {
  double nnz = c.arg("nnz");
  if (nnz < 0 || nnz > static_cast<double>(c.count))
    JUDGE_THROW(Error, "generator 'sparse': nnz = {} is outside [0, {}] (the buffer's element count)", nnz, c.count);
  bool whole = integral(c);
  double width = c.dist.high - c.dist.low + (whole ? 1.0 : 0.0);
  if (c.dist.low == 0 && width <= 1)
    JUDGE_THROW(Error, "generator 'sparse': the range [{}, {}] holds no non-zero value", c.dist.low, c.dist.high);
  fill(c, Sparse{Permutation(static_cast<std::uint64_t>(c.count), c.key), nnz, c.dist.low, width, c.key, whole});
}

}  // namespace
}  // namespace judge::gen

JUDGE_GENERATOR(sparse, judge::gen::sparse)
