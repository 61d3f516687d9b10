#include "judge/core/run/output_diagnosis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace judge {

namespace {

std::string coords_text(const Mismatch& m) {
  std::string s;
  for (auto c : m.coords) s += fmt::format("[{}]", c);
  return s;
}

}  // namespace

std::string likely_cause(const OutputCheck& o) {
  // Certain: the wrong NaNs carry the poison's payload, so they were computed from the poison itself.
  if (o.poison_derived > 0)
    return fmt::format("{} of the wrong values are NaNs computed from the judge's poison: the output was read before "
                       "it was written. Outputs hold garbage on entry (here the judge fills them with NaN), so zero it "
                       "first (cudaMemset, or have the first kernel write it) before accumulating into it (atomicAdd, "
                       "+=)",
                       o.poison_derived);
  // Likely one of two: every wrong value NaN, none Inf. A read-modify-write of the poisoned output, or an overflow
  // that went on to NaN in every element (a softmax whose exps all overflow); the GPU check could not prove the poison
  // (its payload does not survive every operation), so both are named.
  bool all_nan = !o.first.empty() && std::all_of(o.first.begin(), o.first.end(),
                                                 [](const Mismatch& m) { return std::isnan(m.got); });
  if (o.non_finite > 0 && o.mismatches == o.non_finite + o.unwritten && all_nan)
    return "every wrong value is NaN. Either the output was read before it was written: outputs hold garbage on "
           "entry (here the judge fills them with NaN), so zero it first (cudaMemset, or have the first kernel write "
           "it) before accumulating into it (atomicAdd, +=). Or an intermediate overflowed to infinity and became "
           "NaN (inf - inf, inf / inf, 0 * inf): exp of a large value wants the maximum subtracted first";
  return {};
}

std::string describe_wrong_output(const OutputCheck& o) {
  std::string p = fmt::format("{}: {} of {} elements wrong", o.name, o.mismatches, o.count);
  if (o.unwritten) p += fmt::format(" ({} never written", o.unwritten);
  if (o.non_finite)
    p += fmt::format("{}{} NaN/Inf where the reference is finite", o.unwritten ? ", " : " (", o.non_finite);
  if (o.unwritten || o.non_finite) p += ")";
  p += fmt::format("; max abs error {:.3g}, max rel error {:.3g}", o.max_abs_error, o.max_rel_error);
  if (!o.first.empty()) {
    const Mismatch& m = o.first.front();
    p += fmt::format("; first at {}{} (index {}): got {:.7g}, expected {:.7g}", o.name, coords_text(m), m.index,
                     m.got, m.expected);
  }
  if (std::string cause = likely_cause(o); !cause.empty()) p += "; " + cause;
  return p;
}

}  // namespace judge
