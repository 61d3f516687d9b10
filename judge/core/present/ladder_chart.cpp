#include "judge/core/present/ladder_chart.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "judge/core/base/error.hpp"
#include "judge/core/present/report.hpp"
#include "judge/core/present/svg_chart.hpp"

namespace judge {

namespace {

// What the chart draws beyond every chart's rules; the font is named because no page around it gives one.
constexpr std::string_view kStyle = R"css(svg.chart { font-family: system-ui, "DejaVu Sans", Arial, sans-serif; }
svg.chart .bar { stroke: #fff; stroke-width: 1; }
svg.chart .bar-label { font-size: 11px; fill: #1d2330; }
svg.chart .ceiling { fill: none; stroke: #3a4352; stroke-width: 1.5; stroke-dasharray: 6 4; }
svg.chart .ceiling-label { font-size: 11px; fill: #3a4352; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
svg.chart .rejected { font-size: 11px; fill: #b03a2e; }
svg.chart .legend { font-size: 11.5px; }
)css";

// Rates as the table prints them: whole numbers from 100 up, three significant digits below.
std::string rate_text(double rate) { return rate >= 100 ? fmt::format("{:.0f}", rate) : fmt::format("{:.3g}", rate); }

std::vector<std::size_t> chosen_cases(const Ladder& l, const std::vector<std::string>& names) {
  std::vector<std::size_t> shown;
  if (names.empty()) {
    for (std::size_t k = 0; k < l.cases.size(); ++k) shown.push_back(k);
    return shown;
  }
  for (const auto& name : names) {
    const auto at = std::find(l.cases.begin(), l.cases.end(), name);
    if (at == l.cases.end())
      JUDGE_THROW(Error, "{} has no benchmark case '{}'; its benchmark cases are {}", l.challenge, name,
                  fmt::join(l.cases, ", "));
    shown.push_back(static_cast<std::size_t>(at - l.cases.begin()));
  }
  return shown;
}

}  // namespace

std::string ladder_chart_svg(const Ladder& l, const std::vector<std::string>& case_names) {
  const std::vector<std::size_t> shown = chosen_cases(l, case_names);
  const std::string unit(rate_unit(l.bound));
  std::vector<std::string> names;
  std::size_t longest = 0;
  double top = l.ceiling ? l.ceiling->rate : 0;
  for (const auto& row : l.rows) {
    names.push_back(row.rung.name);
    longest = std::max(longest, row.rung.name.size());
    for (std::size_t k : shown)
      if (row.accepted()) top = std::max(top, row.cells[k].rate);
  }
  if (!(top > 0)) top = 1;  // nothing measured: still an axis, the rungs and their verdicts

  // Room for each rung's name under its bars, and above the highest bar or the ceiling for their labels.
  const int slot = std::max(90, static_cast<int>(longest) * 7 + 20);
  const int width = std::max(560, 94 + slot * static_cast<int>(names.size()));
  std::string caption = l.gpu_name.empty() ? l.challenge : fmt::format("{} on {}", l.challenge, l.gpu_name);
  if (shown.size() == 1) caption += fmt::format(" · case {}", l.cases[shown.front()]);
  const svg::Axis y = svg::linear_axis(fmt::format("{} (higher is faster)", unit), 0, top * 1.12, svg::plain_label);
  svg::Chart chart("ladder", width, 420, svg::category_axis("rung", names), y, caption);

  const double group = 0.8, bar = group / static_cast<double>(std::max<std::size_t>(shown.size(), 1));
  for (std::size_t i = 0; i < l.rows.size(); ++i) {
    const LadderRow& row = l.rows[i];
    const double x = static_cast<double>(i);
    if (!row.accepted()) {
      chart.text(x, 0, fmt::format("✗ {}", label(row.verdict)), "rejected", svg::Anchor::middle, 0, -8);
      continue;
    }
    for (std::size_t j = 0; j < shown.size(); ++j) {
      const LadderCell& cell = row.cells[shown[j]];
      if (!(cell.rate > 0)) continue;
      const double at = x - group / 2 + bar * (static_cast<double>(j) + 0.5);
      chart.bar(at, bar * 0.92, 0, cell.rate, "bar",
                {{"data-rung", row.rung.name},
                 {"data-case", cell.case_name},
                 {"data-rate", fmt::format("{:.6g}", cell.rate)}},
                fmt::format("{} · {}: {} {} in {}{}", row.rung.name, cell.case_name, rate_text(cell.rate), unit,
                            format_duration_ms(cell.median_ms),
                            cell.sol_percent > 0 ? fmt::format(", {:.0f}% of the speed of light", cell.sol_percent)
                                                 : ""),
                "fill:" + svg::series_colour(j));
      if (shown.size() <= 3) chart.text(at, cell.rate, rate_text(cell.rate), "bar-label", svg::Anchor::middle, 0, -4);
    }
  }
  if (l.ceiling) {
    chart.hline(l.ceiling->rate, "ceiling");
    chart.text(static_cast<double>(names.size()) - 0.5, l.ceiling->rate,
               fmt::format("{} {} {}", l.ceiling->name, rate_text(l.ceiling->rate), unit), "ceiling-label",
               svg::Anchor::end, -6, -5);
  }
  if (shown.size() > 1)
    for (std::size_t j = 0; j < shown.size(); ++j)
      chart.text(-0.5, y.hi, fmt::format("■ {}", l.cases[shown[j]]), "legend", svg::Anchor::start, 8,
                 16 + 15 * static_cast<double>(j), 0, "fill:" + svg::series_colour(j));

  return chart.render_standalone(
      fmt::format("{} per rung of {}{}", unit, l.challenge, l.gpu_name.empty() ? "" : " on " + l.gpu_name),
      std::string(svg::base_stylesheet()) + std::string(kStyle));
}

}  // namespace judge
