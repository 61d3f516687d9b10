#include "judge/core/measure/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace judge {

SampleStats summarize(std::vector<double> samples) {
  SampleStats s;
  s.n = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  std::size_t n = samples.size();
  s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.min = samples.front();
  s.max = samples.back();
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  double ss = 0;
  for (double x : samples) ss += (x - s.mean) * (x - s.mean);
  s.stdev = n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0.0;
  s.noise_pct = s.mean > 0 ? 100.0 * s.stdev / s.mean : 0.0;
  return s;
}

bool converged(const std::vector<double>& samples, const TimingPolicy& policy) {
  if (static_cast<int>(samples.size()) < policy.min_samples) return false;
  return summarize(samples).noise_pct <= policy.target_noise_pct;
}

bool should_stop(const std::vector<double>& samples, double elapsed_s, const TimingPolicy& policy) {
  int n = static_cast<int>(samples.size());
  if (n >= policy.max_samples) return true;
  if (n < policy.min_samples) return false;
  return converged(samples, policy) || elapsed_s >= policy.budget_s;
}

}  // namespace judge
