#pragma once
// Sample statistics and the stopping rule of the timing loop (host-only, so CI tests them).
#include <vector>

namespace judge {

struct SampleStats {
  int n = 0;
  double median = 0, min = 0, max = 0, mean = 0, stdev = 0;
  double noise_pct = 0;  // stdev / mean, in percent
};

SampleStats summarize(std::vector<double> samples);

struct TimingPolicy {
  double warmup_s = 0.1;         // warm-up calls run for at least this long (and at least min_warmup_calls)
  int min_warmup_calls = 2;
  int min_samples = 10;
  int max_samples = 1000;
  double target_noise_pct = 0.5; // stop once the relative noise is below this...
  double budget_s = 3.0;         // ...or once this much wall time went into timed calls
};

// True when sampling may stop: enough samples and either converged or out of budget (or at max_samples).
bool should_stop(const std::vector<double>& samples, double elapsed_s, const TimingPolicy& policy);
bool converged(const std::vector<double>& samples, const TimingPolicy& policy);

}  // namespace judge
