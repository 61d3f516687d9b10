#include "judge/core/measure/trusted_timing.hpp"

#include <algorithm>

#include <fmt/format.h>


namespace judge {

namespace {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

}  // namespace

Overhead estimate_overhead(std::vector<double> null_call_ms) {
  Overhead o;
  o.samples = static_cast<int>(null_call_ms.size());
  o.median_ms = quantile(null_call_ms, 0.5);
  o.p90_ms = quantile(null_call_ms, 0.9);
  return o;
}

BoundedTiming bound_timing(const std::vector<double>& gpu_ms, const std::vector<double>& trusted_ms,
                           const Overhead& overhead) {
  BoundedTiming b;
  b.gpu_median_ms = quantile(gpu_ms, 0.5);
  b.trusted_median_ms = quantile(trusted_ms, 0.5);
  if (b.gpu_median_ms > b.trusted_median_ms * 1.01 + kForgeSlackMs)
    b.suspicious = fmt::format(
        "the submission's process reported a median GPU time of {:.4g} ms for calls that took {:.4g} ms by the "
        "judge's own clock: GPU work cannot outlast the call that contains it, so the report was not CUPTI's",
        b.gpu_median_ms, b.trusted_median_ms);
  const double allowance = overhead.p90_ms + kRelative * b.gpu_median_ms + kAbsoluteMs;
  if (b.trusted_median_ms - b.gpu_median_ms > allowance) {
    b.charged = "trusted";
    // Its median exceeds the GPU span's by construction: the allowance is at least the overhead's spread.
    for (double t : trusted_ms) b.charged_ms.push_back(std::max(t - overhead.median_ms, 0.0));
  } else {
    b.charged = "gpu";
    b.charged_ms = gpu_ms;
  }
  return b;
}

}  // namespace judge
