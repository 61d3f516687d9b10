#pragma once
// Where a judge's wall time goes, for the cost figures of issue 22 and anyone asking why a submit takes as long as it
// does: with JUDGE_PHASE_TIMES set, each call prints "judge phase-times: <s since the process started> <what>" to
// stderr (the JSON on stdout stays clean). Off, it costs one getenv per call.
#include <string_view>

namespace judge {

void note_phase(std::string_view what);
// Whether JUDGE_PHASE_TIMES is set: callers that would build a label for note_phase check this first.
bool phase_times_on();

}  // namespace judge
