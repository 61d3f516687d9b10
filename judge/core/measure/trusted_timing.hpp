#pragma once
// The trusted bound on a submission's time. The solver process (where solve() runs, and which solve() owns) reports
// each call's GPU span as CUPTI recorded it: exact for honest code, but only a claim. The worker measures every call
// itself: from sending the command to the start of a probe kernel it launches once the solver has answered, on
// CUPTI's clock of its own process. That trusted time contains the call whole (host work inside solve(), GPU work the
// solver's trace did not see, GPU work still running when the solver answered, which the probe has to wait for)
// plus a round trip that is not the submission's: the overhead, measured the same way for null calls (one empty
// kernel) before the submission is loaded, so solve() cannot slow it down to widen its allowance.
//
// From the two, per benchmark case:
//   - a reported GPU span longer than the trusted time cannot be true (the GPU work lies inside the trusted window):
//     suspicious_timing, with both figures;
//   - a trusted time that exceeds the GPU span by more than the overhead's 90th percentile plus kRelative of the span
//     plus kAbsoluteMs (figures below) means the span left work out: the case is charged the trusted time less the median overhead
//     (charged = "trusted"), which is what it cost whatever the trace said. Honest code with host work inside
//     solve() (a cudaMalloc per call) pays for it, as on LeetGPU, whose timer is the host's; it is not rejected.
//   - otherwise the GPU span stands (charged = "gpu"): honest timings keep CUPTI's precision.
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct Overhead {
  double median_ms = 0;
  double p90_ms = 0;
  int samples = 0;
};

// From the trusted times of null calls. Empty input gives zeros.
Overhead estimate_overhead(std::vector<double> null_call_ms);

struct BoundedTiming {
  std::string charged;               // "gpu" or "trusted"
  std::vector<double> charged_ms;    // per sample: the GPU spans, or the trusted times less the median overhead
  double gpu_median_ms = 0;
  double trusted_median_ms = 0;
  std::optional<std::string> suspicious;  // why the reports cannot be true
};

// Measured on an H200 (driver 580): a call's round trip costs about 0.8 ms, mostly the GPU switching between the
// worker's context and the solver's and back, with a spread of about 0.1 ms; and for honest memory-bound calls the
// trusted time exceeded span + median overhead by up to half the span (naive vector_add, 2^27 floats: span 0.465 ms,
// trusted 1.479 ms, overhead 0.816 ms). The allowance covers that, so honest timings keep their GPU span; what it
// lets through unseen is bounded by 60% of what was reported plus the spread, and a call that hides all its work
// behind a decoy is still charged in full, or fails the physical floor.
inline constexpr double kRelative = 0.60;
inline constexpr double kAbsoluteMs = 0.020;
// A reported span may exceed the trusted time by this much (clock granularity) before it is called impossible.
inline constexpr double kForgeSlackMs = 0.005;

// gpu_ms[i] and trusted_ms[i] are the same call's. Both non-empty and of equal length.
BoundedTiming bound_timing(const std::vector<double>& gpu_ms, const std::vector<double>& trusted_ms,
                           const Overhead& overhead);

}  // namespace judge
