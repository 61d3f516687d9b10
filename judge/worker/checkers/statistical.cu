// "statistical": for Monte Carlo estimators that draw their own random samples. The reference writes the exact value
// that each output element estimates; an element passes when it lies within z standard errors of it, where one
// standard error is sigma / sqrt(samples) (sigma: the standard deviation of one sample; both from the spec's check
// args, expressions of the scalars), plus the output's tolerance for float rounding. z defaults to 6: a correct
// estimator (close to normal at these sample counts) is then rejected about once in 500 million runs, while the
// classic bugs (every thread replaying the same random sequence, a float counter that stops counting at 2^24,
// samples dropped in the tail) land hundreds of standard errors away. The judge cannot tell an estimate from the
// exact value: the statement must say so, and a leaderboard of such a challenge measures sampling throughput.
//
// "check": {"name": "statistical", "args": {"sigma": "1.6422", "samples": "n_samples", "z": 6}}
#include <cmath>

#include "judge/core/base/error.hpp"
#include "judge/worker/check.hpp"

namespace judge {
namespace {

constexpr std::int64_t kHostLimit = std::int64_t{1} << 24;  // estimates are a few numbers, not arrays

OutputCheck statistical(const CheckRequest& q) {
  const double sigma = q.arg("sigma"), samples = q.arg("samples");
  const double z = q.args.count("z") > 0 ? q.arg("z") : 6.0;
  if (!(sigma >= 0) || !(samples >= 1) || !(z > 0))
    JUDGE_THROW(Error, "checker 'statistical' of '{}': needs sigma >= 0, samples >= 1 and z > 0; got sigma = {}, "
                "samples = {}, z = {}", q.name, sigma, samples, z);
  if (q.tol.exact || q.tol.norm())
    JUDGE_THROW(Error, "checker 'statistical' of '{}': the tolerance must be {{\"atol\", \"rtol\"}} (the float "
                "rounding allowed on top of the statistical bound)", q.name);
  const double standard_error = sigma / std::sqrt(samples);
  CheckRequest widened = q;
  widened.tol.atol += z * standard_error;
  OutputCheck r = compare_output(widened);
  if (r.mismatches == 0 || r.unwritten > 0 || r.non_finite > 0 || q.count > kHostLimit) return r;

  std::vector<double> got = download_as_double(q.got, q.dtype, q.count, q.stream);
  std::vector<double> want = download_as_double(q.expected, q.dtype, q.count, q.stream);
  std::int64_t worst = 0;
  double worst_distance = -1;
  for (std::int64_t i = 0; i < q.count; ++i) {
    double slack = q.tol.atol + q.tol.rtol * std::fabs(want[i]);
    double distance = std::max(0.0, std::fabs(got[i] - want[i]) - slack);
    if (distance > worst_distance) worst_distance = distance, worst = i;
  }
  std::string where = q.count == 1 ? q.name : fmt::format("{}[{}]", q.name, worst);
  if (standard_error == 0) {
    r.message = fmt::format("{} = {:.9g}, expected {:.9g}: this case has no sampling error (sigma = 0), so only the "
                            "rounding tolerance applies", where, got[worst], want[worst]);
    return r;
  }
  r.message = fmt::format(
      "{} = {:.9g} is {:.1f} standard errors from the exact {:.9g} (one standard error is sigma / sqrt(samples) = "
      "{:.3g} / sqrt({:.0f}) = {:.3g}); an estimator that really averages {:.0f} independent samples lands within {:g}: "
      "check that every thread draws its own random sequence, that every sample is counted (the tail too), and that "
      "the count is kept in an integer or double (a float stops counting at 2^24)",
      where, got[worst], worst_distance / standard_error, want[worst], sigma, samples, standard_error, samples, z);
  return r;
}

}  // namespace
}  // namespace judge

JUDGE_CHECKER(statistical, judge::statistical)
