#include "judge/core/present/ladder_markdown.hpp"

#include <cmath>
#include <regex>

#include <fmt/format.h>

#include "judge/core/present/kernel_table.hpp"
#include "judge/core/present/report.hpp"

namespace judge {

namespace {

// A table cell: no line breaks, and a '|' would end the cell.
std::string cell(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|')
      out += "\\|";
    else if (ch == '\n' || ch == '\r')
      out += ' ';
    else
      out += ch;
  }
  return out;
}

// "Rung 3: the idea." -> "the idea.": the table's rung column already says which rung.
std::string idea_text(const std::string& idea) {
  static const std::regex prefix(R"(^\s*[Rr]ung\s+\d+[A-Za-z]?\s*[:.\-]\s*)");
  return std::regex_replace(idea, prefix, "", std::regex_constants::format_first_only);
}

std::string rate_text(const Ladder& l, double rate) {
  return format_rate(rate * 1e9, l.bound == Bound::compute ? "FLOP/s" : "B/s");
}

std::string case_cell(const Ladder& l, const LadderCell& c) {
  if (!(c.median_ms > 0)) return "-";
  std::string s = format_duration_ms(c.median_ms);
  if (c.rate > 0) s += " · " + rate_text(l, c.rate);
  if (c.sol_percent > 0) s += fmt::format(" · {:.0f}% SOL", c.sol_percent);
  if (c.vs_reference > 0) s += fmt::format(" · {:.2f}× ref", c.vs_reference);
  return s;
}

// The geometric mean of the speedups over the previous rung that are known; "-" for the first rung.
std::string previous_cell(const LadderRow& row) {
  double log_sum = 0;
  int n = 0;
  for (const auto& c : row.cells)
    if (c.vs_previous > 0) {
      log_sum += std::log(c.vs_previous);
      ++n;
    }
  return n ? fmt::format("{:.2f}×", std::exp(log_sum / n)) : "-";
}

std::string kernel_cell(const LadderRow& row) {
  if (row.kernels.empty()) return "not recorded";
  const KernelResources& k = row.kernels.front();
  std::string s = "`" + k.display_name + "`: " + resources_text(k);
  if (row.kernels.size() > 1)
    s += fmt::format(" ({:.0f}% of the time; {} more kernel{})", row.kernels.front().time_percent,
                     row.kernels.size() - 1, row.kernels.size() == 2 ? "" : "s");
  return s;
}

void ladder_table(const Ladder& l, const std::string& chart_link, std::string& out) {
  out += fmt::format("### {}\n\n", l.challenge);
  if (!chart_link.empty())
    out += fmt::format("![{}: one bar per rung, the ceiling as a line]({})\n\n", l.challenge, chart_link);
  std::string about = l.gpu_name.empty() ? "Not timed (no GPU)" : "Measured on " + l.gpu_name;
  about += fmt::format("; {}-bound", to_string(l.bound));
  if (l.ceiling) about += fmt::format(", ceiling {} {}", l.ceiling->name, rate_text(l, l.ceiling->rate));
  out += about + ".\n\n";
  out += "| rung | idea |";
  for (const auto& c : l.cases) out += " " + cell(l.case_label(c)) + " |";
  out += " × prev | kernel with most of the time |\n|---|---|";
  for (std::size_t i = 0; i < l.cases.size(); ++i) out += "---|";
  out += "---|---|\n";
  for (const auto& row : l.rows) {
    out += fmt::format("| `{}` | {} |", cell(row.rung.file.filename().string()), cell(idea_text(row.rung.idea)));
    if (!row.accepted()) {
      std::string why = fmt::format("✗ {}", label(row.verdict));
      if (!row.failed_case.empty()) why += " in case " + row.failed_case;
      out += " " + cell(why) + " |";
      for (std::size_t i = 1; i < l.cases.size(); ++i) out += " |";
      out += " | |\n";
      continue;
    }
    for (const auto& c : row.cells) out += " " + cell(case_cell(l, c)) + " |";
    out += " " + previous_cell(row) + " | " + cell(kernel_cell(row)) + " |\n";
  }
  out += "\n";
}

}  // namespace

std::string ladder_markdown(const std::vector<Ladder>& ladders, const std::vector<std::string>& chart_links) {
  std::string out;
  for (std::size_t i = 0; i < ladders.size(); ++i)
    ladder_table(ladders[i], i < chart_links.size() ? chart_links[i] : std::string(), out);
  if (!out.empty()) out.pop_back();  // one trailing newline, not a blank line
  return out;
}

}  // namespace judge
