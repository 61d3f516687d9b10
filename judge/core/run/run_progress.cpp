#include "judge/core/run/run_progress.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace judge {

std::string progress_text(const RunProgress& p) {
  std::string head = fmt::format("case {}/{} {}", p.case_index + 1, p.case_count, p.case_name);
  if (p.phase == "call") return fmt::format("{}: {} call {}", head, p.kind, p.call);
  if (p.phase == "warm-up") return fmt::format("{}: warming up", head);
  if (p.phase == "timing") {
    const double left = std::max(0.0, p.budget_s - p.elapsed_s);
    return fmt::format("{}: {} calls, median {:.4g} ms \u00b1 {:.2f}%, {:.1f} s of the {:g} s budget left", head,
                       p.calls, p.median_ms, p.noise_pct, left, p.budget_s);
  }
  return fmt::format("{}: preparing", head);
}

double progress_fraction(const RunProgress& p) {
  if (p.case_count <= 0) return 0;
  double within = 0;
  if (p.phase == "timing" && p.budget_s > 0) within = std::clamp(p.elapsed_s / p.budget_s, 0.0, 1.0);
  return std::clamp((p.case_index + within) / p.case_count, 0.0, 1.0);
}

}  // namespace judge
