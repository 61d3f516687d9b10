#pragma once
// Where a judging run is, as a terminal's progress line shows it: which case, which call, and for a timed case the
// samples so far, their median and noise, and what is left of the budget. Built from the worker's messages; never
// part of a result.
#include <string>

namespace judge {

struct RunProgress {
  std::string case_name;
  std::string kind = "test";  // "test" or "benchmark"
  int case_index = 0;         // 0-based, in the order the cases run
  int case_count = 0;
  std::string phase = "preparing";  // "preparing", "call", "warm-up", "timing"
  int call = 0;                     // "call": the call running, 1-based
  int calls = 0;                    // "timing": samples kept so far
  double median_ms = 0;
  double noise_pct = 0;
  double elapsed_s = 0;             // "timing": wall time spent sampling
  double budget_s = 0;
};

// "case 13/14 N_250000: 37 calls, median 0.01234 ms ± 0.41%, 1.8 s of the 3 s budget left"
std::string progress_text(const RunProgress& p);
// The share of the run done, in [0, 1]: finished cases, plus the share of the budget a timed case has used.
double progress_fraction(const RunProgress& p);

}  // namespace judge
