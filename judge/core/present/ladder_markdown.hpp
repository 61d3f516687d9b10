#pragma once
// `judge ladder --markdown`: the ladders as Markdown tables, the form submissions/README.md carries. Generated from
// stored runs (`judge ladder --from bench/ladder-runs/<gpu>/*.json --markdown`), never typed: a test compares the
// README with what the stored runs give. Per ladder a heading, the GPU and the ceiling, then one row per rung: its
// file, its idea (the file's first comment), per benchmark case the median, the rate, the share of the speed of
// light and the speedup over the reference, the speedup over the previous accepted rung, and the kernel that took
// most of the time with its resources (threads, registers, spills, shared memory, occupancy).
#include <string>
#include <vector>

#include "judge/core/run/ladder.hpp"

namespace judge {

// chart_links[i], when given and not empty, is where ladders[i]'s chart (SVG) is, as the Markdown file will link
// it: the table then opens with the chart.
std::string ladder_markdown(const std::vector<Ladder>& ladders, const std::vector<std::string>& chart_links = {});

}  // namespace judge
