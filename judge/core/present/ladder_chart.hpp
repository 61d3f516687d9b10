#pragma once
// `judge ladder --chart FILE.svg`: the chart the optimisation articles draw. One bar per accepted rung (grouped by
// benchmark case when there are several), its height the rate the challenge is bound by (GFLOP/s or GB/s, from
// zero), the GPU's ceiling as a horizontal line, rungs named under their bars; a rung that was not accepted keeps
// its place with its verdict. A standalone SVG file (its own size, viewBox, stylesheet and text), so it reads the
// same in an image viewer, an article or a browser.
#include <string>
#include <vector>

#include "judge/core/run/ladder.hpp"

namespace judge {

// cases: the benchmark cases drawn, in this order (each one of ladder.cases); empty: all of them. Throws Error
// naming an unknown case and the ladder's cases.
std::string ladder_chart_svg(const Ladder& ladder, const std::vector<std::string>& cases = {});

}  // namespace judge
