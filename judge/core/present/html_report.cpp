#include "judge/core/present/html_report.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "judge/core/base/version.hpp"
#include "judge/core/present/html_escape.hpp"
#include "judge/core/present/report.hpp"
#include "judge/core/present/svg_chart.hpp"

namespace judge {

namespace fs = std::filesystem;

namespace {

// ---- gathering ----

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

bool in_scope(const ReportScope& scope, const std::string& challenge, const std::string& gpu) {
  return (!scope.challenge || *scope.challenge == challenge) && (!scope.gpu || *scope.gpu == gpu);
}

// `judge submit` names a saved result <challenge>-<YYYYmmddTHHMMSSZ>-<hash>.json and leaves created_at empty (the
// database assigns it); the name still says when.
std::string saved_at(const fs::path& file) {
  static const std::regex stamp(R"(-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-[0-9a-f]*\.json$)");
  std::smatch m;
  const std::string name = file.filename().string();
  if (!std::regex_search(name, m, stamp)) return "";
  return fmt::format("{}-{}-{}T{}:{}:{}Z", m[1].str(), m[2].str(), m[3].str(), m[4].str(), m[5].str(), m[6].str());
}

void gather_saved(const std::vector<fs::path>& dirs, const ReportScope& scope, std::vector<SavedResult>& saved,
                  std::vector<std::string>& notes) {
  std::set<fs::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    const fs::path canonical = fs::weakly_canonical(dir, ec);
    if (!seen.insert(ec ? dir : canonical).second) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      try {
        SavedResult s{file, submission_from_json(nlohmann::json::parse(text.str()))};
        if (s.record.created_at.empty()) s.record.created_at = saved_at(file);
        if (in_scope(scope, s.record.challenge, s.record.gpu_name)) saved.push_back(std::move(s));
      } catch (const std::exception& e) {
        notes.push_back(fmt::format("the saved result {} could not be read ({}), so it is not shown", file.string(),
                                    e.what()));
      }
    }
  }
}

// ---- drawing ----

std::string colour(std::size_t i) { return svg::series_colour(i); }

constexpr const char* kStyle = R"css(
:root { --ink: #1d2330; --muted: #5f6b7a; --line: #d8dde4; --band: #f4f6f9; --accent: #2f6fb5; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px 32px 48px; color: var(--ink);
       font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 40px 0 6px; padding-top: 12px; border-top: 2px solid var(--ink); }
h3 { font-size: 15px; margin: 22px 0 8px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12.5px; }
.meta, .note { color: var(--muted); }
.note { margin: 6px 0; }
.id { font-weight: normal; color: var(--muted); font-size: 15px; margin-left: 6px; }
nav ul { columns: 2; margin: 6px 0; padding-left: 18px; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
table { border-collapse: collapse; margin: 4px 0 8px; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { background: var(--band); font-weight: 600; font-size: 12.5px; }
td.num, th.num { text-align: right; }
tr.stress-head th { text-align: left; padding-top: 0.8em; }
tr.beyond td { color: #666; font-size: 90%; }
tr.leader td { font-weight: 600; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 6px; }
figure { display: flex; align-items: flex-start; gap: 18px; margin: 8px 0 12px; }
figcaption { font-size: 12.5px; color: var(--muted); max-width: 330px; }
figcaption ul { list-style: none; padding: 0; margin: 4px 0 10px; }
figcaption li { margin: 2px 0; color: var(--ink); }
details.submission { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 0 14px; }
details.submission[open] { padding-bottom: 10px; }
details.submission > summary { cursor: pointer; padding: 8px 0; font-weight: 600; }
details.submission > summary .meta { font-weight: normal; margin-left: 8px; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 1px 7px; border-radius: 9px;
         background: #e7eef8; color: var(--accent); margin-left: 6px; }
.badge.saved { background: #fbefdc; color: #94600f; }
p.protections { margin: 2px 0 8px; font-size: 12.5px; color: var(--muted); }
p.protections .protection.on { color: var(--ink); }
p.protections .protection.off { color: #94600f; font-weight: 600; }
svg.chart { flex: none; }
svg.chart .roof { fill: none; stroke: #3a4352; stroke-width: 2; }
svg.chart .roof.other { stroke: #9aa3ae; stroke-width: 1.3; stroke-dasharray: 5 4; }
svg.chart .roof-label { font-size: 11px; fill: #3a4352; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
svg.chart .roof-label.other { fill: #7d8794; }
svg.chart .ref-link { fill: none; stroke: #9aa3ae; stroke-width: 1; stroke-dasharray: 2 3; }
svg.chart .case-point { stroke: #fff; stroke-width: 1.5; }
svg.chart .reference-point { fill: #fff; stroke-width: 2; }
svg.chart .series { fill: none; stroke-width: 2; }
svg.chart .history-point, svg.chart .rung-point { stroke: #fff; stroke-width: 1.5; }
svg.chart .reference-line { fill: none; stroke: #3a4352; stroke-dasharray: 5 4; }
)css";

// Each chart's id must be unique in the page: it names the chart's clip path.
class Page {
 public:
  explicit Page(std::ostream& out) : out_(out) {}
  std::ostream& out() { return out_; }
  std::string next_id(const char* kind) { return fmt::format("{}-{}", kind, ++charts_); }

 private:
  std::ostream& out_;
  int charts_ = 0;
};

std::string e(std::string_view s) { return html_escape(s); }

// Escaped, with `commands` in backticks (as the judge's messages write them) shown as code.
std::string prose(std::string_view s) {
  std::string out;
  bool code = false;
  for (std::size_t at = 0;;) {
    const std::size_t tick = s.find('`', at);
    out += e(s.substr(at, tick == std::string_view::npos ? std::string_view::npos : tick - at));
    if (tick == std::string_view::npos) break;
    out += code ? "</code>" : "<code>";
    code = !code;
    at = tick + 1;
  }
  if (code) out += "</code>";
  return out;
}

std::string when(const std::string& iso) {
  if (iso.empty()) return "—";
  std::string s = iso;
  std::replace(s.begin(), s.end(), 'T', ' ');
  if (auto dot = s.find('.'); dot != std::string::npos) s.erase(dot);  // milliseconds clutter a table
  if (!s.empty() && s.back() == 'Z') s.pop_back();
  return s;
}

std::optional<double> epoch_seconds(const std::string& iso) {
  std::tm t{};
  double seconds = 0;
  if (std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%lf", &t.tm_year, &t.tm_mon, &t.tm_mday, &t.tm_hour, &t.tm_min,
                  &seconds) != 6)
    return std::nullopt;
  t.tm_year -= 1900;
  t.tm_mon -= 1;
  t.tm_sec = 0;
  return static_cast<double>(timegm(&t)) + seconds;
}

bool positive(double v) { return std::isfinite(v) && v > 0; }

constexpr double kPi = 3.14159265358979323846;

std::string seconds_label(double v) {
  const std::string s = svg::si_label(v);
  return s + (s.find(' ') == std::string::npos ? " s" : "s");
}

std::string scalars_text(const Env& scalars) {
  std::string s;
  for (const auto& [k, v] : scalars)
    s += v == std::floor(v) && std::fabs(v) < 1e15 ? fmt::format("{}{}={:.0f}", s.empty() ? "" : " ", k, v)
                                                   : fmt::format("{}{}={:g}", s.empty() ? "" : " ", k, v);
  return s;
}

const Case* benchmark_case(const BoardReport& b, const std::string& name) {
  if (!b.spec) return nullptr;
  for (const auto& c : b.spec->benchmarks)
    if (c.name == name) return &c;
  return nullptr;
}

// The compute roof the challenge is measured against (as for the SOL column of `judge submit`).
double active_roof_gflops(const BoardReport& b) {
  if (!b.calibration) return 0;
  std::vector<DType> inputs;
  if (b.spec)
    for (const auto& p : b.spec->params)
      if (p.is_buffer() && p.role != Role::output) inputs.push_back(p.dtype);
  return compute_roof_gflops(*b.calibration, inputs);
}

struct Roof {
  std::string name;
  double gflops = 0;
  const char* unit = "FLOP/s";  // INT8: integer operations
};

// The compute roofs drawn: the FP32 FMA rate and the tensor-core rates (FP16 and BF16 as one when they agree; INT8
// in integer operations per second, for the int8 challenges).
std::vector<Roof> compute_roofs(const Calibration& c) {
  std::vector<Roof> roofs;
  auto add = [&](std::string name, double gflops, const char* unit = "FLOP/s") {
    if (positive(gflops)) roofs.push_back({std::move(name), gflops, unit});
  };
  add("FP32 FMA", c.fp32_fma_gflops);
  add("TF32 tensor", c.tf32_gflops);
  if (positive(c.fp16_gflops) && positive(c.bf16_gflops) &&
      std::fabs(c.fp16_gflops - c.bf16_gflops) <= 0.03 * std::max(c.fp16_gflops, c.bf16_gflops)) {
    add("FP16/BF16 tensor", std::max(c.fp16_gflops, c.bf16_gflops));
  } else {
    add("FP16 tensor", c.fp16_gflops);
    add("BF16 tensor", c.bf16_gflops);
  }
  add("INT8 tensor", c.int8_gops, "OP/s");
  return roofs;
}

void cases_table(const BoardReport& b, const SubmissionRecord& s, Page& page) {
  auto& out = page.out();
  const double roof = active_roof_gflops(b);
  out << "<table class=\"cases\">\n<thead><tr><th>case</th><th>sizes</th><th class=\"num\">median</th>"
         "<th class=\"num\">min</th><th class=\"num\">GFLOP/s</th><th class=\"num\">GB/s</th>"
         "<th class=\"num\">SOL</th><th class=\"num\">reference</th><th class=\"num\">vs ref</th>"
         "<th class=\"num\">samples</th></tr></thead>\n<tbody>\n";
  // The graded cases, then the stress cases under a heading of their own, each with what it goes past and, when it
  // failed, its verdict (they decide nothing, so an accepted run can hold failed ones).
  auto row = [&](std::size_t i) {
    const CaseRecord& c = s.cases[i];
    const Case* spec_case = benchmark_case(b, c.name);
    std::string sol = "-";
    if (b.calibration && positive(c.median_ms)) {
      // The rates are flops and bytes over the median, so the case's flops and bytes come back from them.
      const double flops = positive(c.gflops) ? c.gflops * c.median_ms * 1e6 : 0;
      const double bytes = positive(c.gbps) ? c.gbps * c.median_ms * 1e6 : 0;
      const SpeedOfLight l = speed_of_light(flops, bytes, c.median_ms, *b.calibration, roof);
      if (l.percent > 0) sol = fmt::format("{:.0f}%", l.percent);
    }
    const bool has_ref = positive(c.reference_ms) && positive(c.median_ms);
    out << fmt::format(
        "<tr data-case=\"{}\"><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td>"
        "<td class=\"mono\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td></tr>\n",
        e(c.name), colour(i), e(c.name), spec_case ? e(scalars_text(spec_case->scalars)) : "",
        format_duration_ms(c.median_ms), format_duration_ms(c.min_ms),
        std::isfinite(c.gflops) ? fmt::format("{:.1f}", c.gflops) : "-",
        std::isfinite(c.gbps) ? fmt::format("{:.1f}", c.gbps) : "-", sol,
        has_ref ? format_duration_ms(c.reference_ms) : "-",
        has_ref ? fmt::format("{:.2f}x", c.reference_ms / c.median_ms) : "-",
        std::isfinite(c.spread_pct) ? fmt::format("{} ±{:.1f}%", c.samples, c.spread_pct)
                                    : fmt::format("{}", c.samples));
    if (c.stress) {
      const bool failed = !c.verdict.empty() && c.verdict != "accepted";
      const auto verdict = parse_verdict(c.verdict);
      out << fmt::format("<tr class=\"beyond\"><td></td><td colspan=\"9\">{}{}</td></tr>\n",
                         failed ? fmt::format("<strong>✗ {}</strong> · ", e(verdict ? std::string(label(*verdict))
                                                                                     : c.verdict))
                                : "",
                         e(c.beyond));
    }
  };
  for (std::size_t i = 0; i < s.cases.size(); ++i)
    if (!s.cases[i].stress) row(i);
  if (std::any_of(s.cases.begin(), s.cases.end(), [](const CaseRecord& c) { return c.stress; })) {
    out << "<tr class=\"stress-head\"><th colspan=\"10\">stress cases: beyond the statement's promises, reported "
           "apart, never part of the verdict or the score</th></tr>\n";
    for (std::size_t i = 0; i < s.cases.size(); ++i)
      if (s.cases[i].stress) row(i);
  }
  out << "</tbody></table>\n";
}

// The roofline of one submission: x is arithmetic intensity (flops / bytes, which is GFLOP/s over GB/s), y the
// achieved rate; the reference, timed on the same cases, does the same work, so it sits at the same intensity.
void roofline(const BoardReport& b, const SubmissionRecord& s, Page& page) {
  auto& out = page.out();
  struct Point {
    std::size_t index;
    double intensity, flops_per_s, reference_flops_per_s;
  };
  std::vector<Point> points;
  std::vector<const CaseRecord*> unplotted;
  for (std::size_t i = 0; i < s.cases.size(); ++i) {
    const CaseRecord& c = s.cases[i];
    if (c.stress && !c.verdict.empty() && c.verdict != "accepted") continue;  // a failed stress case has no time
    if (!positive(c.gflops) || !positive(c.gbps) || !positive(c.median_ms)) {
      unplotted.push_back(&c);
      continue;
    }
    const double reference = positive(c.reference_ms) ? c.gflops * 1e9 * c.median_ms / c.reference_ms : 0;
    points.push_back({i, c.gflops / c.gbps, c.gflops * 1e9, reference});
  }
  if (points.empty()) {
    out << "<p class=\"note\">No roofline: the challenge counts no floating-point operations, so its cases have no "
           "arithmetic intensity; the GB/s column says how close they come to the copy bandwidth.</p>\n";
    return;
  }
  const std::vector<Roof> roofs = b.calibration ? compute_roofs(*b.calibration) : std::vector<Roof>{};
  const double bandwidth = b.calibration && positive(b.calibration->copy_gbps) ? b.calibration->copy_gbps * 1e9 : 0;
  const double active = active_roof_gflops(b) * 1e9;

  double x_lo = points[0].intensity, x_hi = x_lo, y_lo = points[0].flops_per_s, y_hi = y_lo;
  auto take_x = [&](double x) { x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x); };
  auto take_y = [&](double y) { y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y); };
  for (const auto& p : points) {
    take_x(p.intensity);
    take_y(p.flops_per_s);
    if (p.reference_flops_per_s > 0) take_y(p.reference_flops_per_s);
  }
  if (bandwidth > 0) {
    for (const auto& r : roofs) {
      take_x(r.gflops * 1e9 / bandwidth);  // each ridge point in view
      take_y(r.gflops * 1e9);
    }
    take_x(x_hi * 4);  // room right of the highest ridge for the roof labels
  }
  svg::Axis x = svg::log_axis("arithmetic intensity (FLOP/byte)", x_lo, x_hi, svg::plain_label);
  // Room above the top roof for its label.
  svg::Axis y = svg::log_axis("achieved rate (FLOP/s)", y_lo, y_hi * (roofs.empty() ? 1 : 1.4), [](double v) {
    return svg::si_label(v);
  });
  svg::Chart chart(page.next_id("roofline"), 720, 430, x, y);

  if (bandwidth > 0 && !roofs.empty()) {
    double top = 0, first_ridge = std::numeric_limits<double>::infinity();
    for (const auto& r : roofs) {
      top = std::max(top, r.gflops * 1e9);
      first_ridge = std::min(first_ridge, r.gflops * 1e9 / bandwidth);
    }
    chart.polyline({{x.lo, x.lo * bandwidth}, {top / bandwidth, top}}, "roof");
    // The bandwidth label runs along the slope, above it, where no case can be: midway between where the slope
    // enters the plot and the first ridge (memory-bound cases sit close under the low end of the slope, and the
    // label should not cover them), or from where it enters when that stretch is short.
    const double enter = std::max(x.lo, y.lo / bandwidth);
    const bool room = chart.px(first_ridge) - chart.px(enter) >= 160;
    const double at = room ? std::sqrt(enter * first_ridge) : enter * 1.15;
    const double angle = std::atan2(chart.py(at * 10 * bandwidth) - chart.py(at * bandwidth),
                                    chart.px(at * 10) - chart.px(at)) * 180 / kPi;
    chart.text(at, at * bandwidth, fmt::format("copy {}B/s", svg::si_label(bandwidth)), "roof-label",
               room ? svg::Anchor::middle : svg::Anchor::start, 0, -6, angle);
    for (const auto& r : roofs) {
      const double rate = r.gflops * 1e9;
      const bool measured_against = std::fabs(rate - active) <= 1e-6 * rate;
      const char* cls = measured_against ? "roof" : "roof other";
      chart.polyline({{rate / bandwidth, rate}, {x.hi, rate}}, cls);
      chart.text(x.hi, rate, fmt::format("{} {}{}", r.name, svg::si_label(rate), r.unit),
                 measured_against ? "roof-label" : "roof-label other", svg::Anchor::end, -6, -5);
    }
  }
  for (const auto& p : points) {
    const CaseRecord& c = s.cases[p.index];
    const std::string fill = "fill:" + colour(p.index);
    if (p.reference_flops_per_s > 0) {
      chart.polyline({{p.intensity, p.reference_flops_per_s}, {p.intensity, p.flops_per_s}}, "ref-link");
      chart.marker(p.intensity, p.reference_flops_per_s, svg::Marker::diamond, "reference-point",
                   {{"data-case", c.name}},
                   fmt::format("{} reference: {}FLOP/s in {}", c.name, svg::si_label(p.reference_flops_per_s),
                               format_duration_ms(c.reference_ms)),
                   "stroke:" + colour(p.index));
    }
    chart.marker(p.intensity, p.flops_per_s, svg::Marker::dot, "case-point", {{"data-case", c.name}},
                 fmt::format("{}: {}FLOP/s, {:.1f} GB/s, {:.3g} FLOP/byte, median {}", c.name,
                             svg::si_label(p.flops_per_s), c.gbps, p.intensity, format_duration_ms(c.median_ms)),
                 fill);
  }
  out << "<figure class=\"roofline\">\n"
      << chart.render(fmt::format("roofline of submission by {} on {}", s.user, s.gpu_name));
  out << "<figcaption><ul>\n";
  for (const auto& p : points)
    out << fmt::format("<li><span class=\"swatch\" style=\"background:{}\"></span>{}</li>\n", colour(p.index),
                       e(s.cases[p.index].name));
  out << "</ul>● this submission, ◇ the reference on the same case (same work, so the same intensity).";
  if (b.calibration)
    out << fmt::format(" Roofs: {}'s ceilings measured by <code>judge calibrate</code>{}; the solid one is the roof "
                       "this challenge is measured against.",
                       e(b.gpu_name),
                       b.calibration->measured_at.empty() ? "" : " on " + e(when(b.calibration->measured_at)));
  out << "</figcaption>\n</figure>\n";
  if (!b.calibration) out << "<p class=\"note no-roofs\">No roofs: " << prose(b.calibration_note) << ".</p>\n";
  for (const CaseRecord* c : unplotted)
    out << fmt::format("<p class=\"note case-unplotted\" data-case=\"{}\">{} is not on the roofline: it counts no "
                       "floating-point operations.</p>\n",
                       e(c->name), e(c->name));
}

// What kept the run from the judge's records when it ran: the protections on, then those off with why. Runs recorded
// before judges kept this have none: "not recorded", never "none".
void protections_line(const SubmissionRecord& s, Page& page) {
  auto& out = page.out();
  if (s.protections.empty()) {
    out << "<p class=\"protections not-recorded\">Sandbox: not recorded (the judge that ran it did not record its "
           "protections).</p>\n";
    return;
  }
  const std::vector<Protection> merged = merge_protections(s.protections);
  std::string on, off;
  std::size_t offs = 0;
  for (const auto& p : merged) {
    if (p.on) {
      on += fmt::format("{}<span class=\"protection on\" title=\"{}\">{}</span>", on.empty() ? "" : ", ", e(p.why),
                        e(p.name));
    } else {
      off += fmt::format("{}<span class=\"protection off\">{}</span>{}", off.empty() ? "" : ", ", e(p.name),
                         p.why.empty() ? "" : " (" + e(p.why) + ")");
      ++offs;
    }
  }
  out << fmt::format("<p class=\"protections\" data-off=\"{}\">Sandbox: {}{}</p>\n", offs,
                     on.empty() ? std::string("nothing on") : on, off.empty() ? "" : " · off: " + off);
}

void submission_details(const BoardReport& b, const SubmissionRecord& s, const std::string& anchor, bool open,
                const std::string& badges, Page& page) {
  auto& out = page.out();
  out << fmt::format("<details class=\"submission\" id=\"{}\" data-submission=\"{}\"{}>\n", anchor, s.id,
                     open ? " open" : "");
  out << fmt::format("<summary>{} · {} · {}<span class=\"meta\">{} UTC · judge {} · source {}</span>{}</summary>\n",
                     s.id > 0 ? fmt::format("#{}", s.id) : std::string("saved"), e(s.user),
                     format_duration_ms(s.score_ms), e(when(s.created_at)), e(s.judge_version),
                     e(s.source_hash.substr(0, 12)), badges);
  protections_line(s, page);
  cases_table(b, s, page);
  roofline(b, s, page);
  out << "</details>\n";
}

void history_chart(const BoardReport& b, Page& page) {
  auto& out = page.out();
  // One series per user, in ranking order, so colours follow the table.
  std::vector<std::string> users;
  for (const auto& r : b.ranking) users.push_back(r.user);
  std::map<std::string, std::vector<std::pair<double, const SubmissionRecord*>>> series;
  double t0 = 0, t1 = 0, s0 = 0, s1 = 0;
  bool any = false;
  for (const auto& run : b.runs) {
    const auto t = epoch_seconds(run.created_at);
    if (!t || !positive(run.score_ms)) continue;
    if (std::find(users.begin(), users.end(), run.user) == users.end()) users.push_back(run.user);
    series[run.user].push_back({*t, &run});
    const double score = run.score_ms / 1e3;
    t0 = any ? std::min(t0, *t) : *t, t1 = any ? std::max(t1, *t) : *t;
    s0 = any ? std::min(s0, score) : score, s1 = any ? std::max(s1, score) : score;
    any = true;
  }
  if (!any) {
    out << "<p class=\"note\">No dated runs to draw.</p>\n";
    return;
  }
  svg::Chart chart(page.next_id("history"), 720, 320, svg::time_axis("recorded (UTC)", t0, t1),
                   svg::log_axis("score", s0, s1, seconds_label));
  for (std::size_t u = 0; u < users.size(); ++u) {
    auto& runs = series[users[u]];
    std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
    std::vector<std::pair<double, double>> line;
    for (const auto& [t, run] : runs) line.push_back({t, run->score_ms / 1e3});
    if (line.size() > 1) chart.polyline(line, "series", "stroke:" + colour(u));
    for (const auto& [t, run] : runs)
      chart.marker(t, run->score_ms / 1e3, svg::Marker::dot, "history-point",
                   {{"data-user", run->user}, {"data-submission", std::to_string(run->id)}},
                   fmt::format("{} #{}: {} on {}", run->user, run->id, format_duration_ms(run->score_ms),
                               when(run->created_at)),
                   "fill:" + colour(u));
  }
  out << "<figure class=\"history\">\n"
      << chart.render(fmt::format("scores over time of {} on {}", b.challenge, b.gpu_name)) << "<figcaption><ul>\n";
  for (std::size_t u = 0; u < users.size(); ++u)
    out << fmt::format("<li><span class=\"swatch\" style=\"background:{}\"></span>{}</li>\n", colour(u), e(users[u]));
  out << "</ul>Every accepted run. The score is the geometric mean of the benchmark medians; lower is better."
         "</figcaption>\n</figure>\n";
}

void board_section(const BoardReport& b, std::size_t index, Page& page) {
  auto& out = page.out();
  const std::string title = b.spec ? b.spec->title : b.challenge;
  out << fmt::format("<section class=\"board\" id=\"board-{}\" data-challenge=\"{}\" data-gpu=\"{}\">\n", index,
                     e(b.challenge), e(b.gpu_name));
  out << fmt::format("<h2>{}<span class=\"id\">{}</span> on {}</h2>\n", e(title), e(b.challenge), e(b.gpu_name));
  if (b.spec) out << "<p class=\"meta\">" << e(b.spec->summary) << "</p>\n";

  if (!b.ranking.empty()) {
    out << "<h3>Leaderboard</h3>\n<table class=\"ranking\">\n<thead><tr><th class=\"num\">rank</th><th>user</th>"
           "<th class=\"num\">score</th><th class=\"num\">attempts</th><th>when (UTC)</th><th>submission</th></tr>"
           "</thead>\n<tbody>\n";
    for (std::size_t u = 0; u < b.ranking.size(); ++u) {
      const RankingEntry& r = b.ranking[u];
      out << fmt::format(
          "<tr{}><td class=\"num\">{}</td><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td>"
          "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td><a href=\"#submission-{}\">#{}</a></td>"
          "</tr>\n",
          r.rank == 1 ? " class=\"leader\"" : "", r.rank, colour(u), e(r.user), format_duration_ms(r.score_ms),
          r.attempts, e(when(r.created_at)), r.submission_id, r.submission_id);
    }
    out << "</tbody></table>\n<h3>Scores over time</h3>\n";
    history_chart(b, page);
  }
  if (!b.runs.empty()) {
    out << "<h3>Submissions</h3>\n";
    std::set<std::int64_t> best;
    for (const auto& r : b.ranking) best.insert(r.submission_id);
    const std::int64_t leader = b.ranking.empty() ? 0 : b.ranking.front().submission_id;
    for (const auto& run : b.runs) {
      std::string badges;
      if (run.id == leader) badges = "<span class=\"badge\">leader</span>";
      else if (best.count(run.id)) badges = "<span class=\"badge\">best of user</span>";
      submission_details(b, run, fmt::format("submission-{}", run.id), run.id == leader, badges, page);
    }
  }
  if (!b.saved.empty()) {
    out << "<h3>Saved, not in the database</h3>\n<p class=\"note\">Accepted runs that <code>judge submit</code> could "
           "not record and saved as files instead; they are not ranked.</p>\n";
    for (std::size_t k = 0; k < b.saved.size(); ++k)
      submission_details(b, b.saved[k].record, fmt::format("saved-{}-{}", index, k), b.runs.empty() && k == 0,
                 fmt::format("<span class=\"badge saved\">saved in {}</span>", e(b.saved[k].file.filename().string())),
                 page);
  }
  out << "</section>\n";
}

// The rung chart of each ladder: each rung's score, in rung order, against the reference.
void ladders_section(const std::vector<LadderReport>& ladders, Page& page) {
  auto& out = page.out();
  out << "<section class=\"ladders\" id=\"ladders\">\n<h2>Ladders</h2>\n";
  for (const auto& l : ladders) {
    out << fmt::format("<h3>{} on {}</h3>\n", e(l.challenge), e(l.gpu_name));
    std::vector<std::string> names;
    double lo = 0, hi = 0;
    for (const auto& r : l.rungs) {
      names.push_back(r.name);
      if (!positive(r.score_ms)) continue;
      lo = lo > 0 ? std::min(lo, r.score_ms) : r.score_ms;
      hi = std::max(hi, r.score_ms);
    }
    if (positive(l.reference_ms)) {
      lo = lo > 0 ? std::min(lo, l.reference_ms) : l.reference_ms;
      hi = std::max(hi, l.reference_ms);
    }
    if (!(lo > 0)) {
      out << "<p class=\"note\">No rung has a score yet.</p>\n";
      continue;
    }
    svg::Chart chart(page.next_id("ladder"), 720, 320, svg::category_axis("rung", names),
                     svg::log_axis("score", lo / 1e3, hi / 1e3, seconds_label));
    std::vector<std::pair<double, double>> line;
    for (std::size_t i = 0; i < l.rungs.size(); ++i)
      if (positive(l.rungs[i].score_ms)) line.push_back({static_cast<double>(i), l.rungs[i].score_ms / 1e3});
    if (positive(l.reference_ms)) {
      chart.hline(l.reference_ms / 1e3, "reference-line");
      chart.text(static_cast<double>(names.size()) - 0.5, l.reference_ms / 1e3,
                 fmt::format("reference {}", format_duration_ms(l.reference_ms)), "roof-label", svg::Anchor::end, -6,
                 -5);
    }
    chart.polyline(line, "series", "stroke:" + colour(0));
    for (std::size_t i = 0; i < l.rungs.size(); ++i)
      if (positive(l.rungs[i].score_ms))
        chart.marker(static_cast<double>(i), l.rungs[i].score_ms / 1e3, svg::Marker::dot, "rung-point",
                     {{"data-rung", l.rungs[i].name}},
                     fmt::format("{}: {}", l.rungs[i].name, format_duration_ms(l.rungs[i].score_ms)),
                     "fill:" + colour(0));
    out << "<figure class=\"ladder\">\n" << chart.render(fmt::format("rungs of {} on {}", l.challenge, l.gpu_name))
        << "</figure>\n";
  }
  out << "</section>\n";
}

}  // namespace

std::size_t ReportData::submission_count() const {
  std::size_t n = 0;
  for (const auto& b : boards) n += b.runs.size() + b.saved.size();
  return n;
}

ReportData gather_report(const Leaderboard* board, const std::string& database, const CalibrationStore& calibrations,
                         const fs::path& challenges_root, const std::vector<fs::path>& saved_dirs,
                         const ReportScope& scope) {
  ReportData data;
  data.database = database;
  data.calibration_file = calibrations.path().string();
  data.generated_at = utc_now();
  data.judge_version = std::string(judge_version());

  std::map<std::pair<std::string, std::string>, BoardReport> boards;
  auto board_of = [&](const std::string& challenge, const std::string& gpu) -> BoardReport& {
    BoardReport& b = boards[{challenge, gpu}];
    b.challenge = challenge;
    b.gpu_name = gpu;
    return b;
  };
  if (board) {
    std::set<std::string> challenges;
    for (const auto& summary : board->overview()) {
      if (!in_scope(scope, summary.challenge, summary.gpu_name)) continue;
      board_of(summary.challenge, summary.gpu_name).ranking = board->ranking(summary.challenge, summary.gpu_name);
      challenges.insert(summary.challenge);
    }
    for (const auto& challenge : challenges)
      for (auto& run : board->history(challenge))
        if (in_scope(scope, run.challenge, run.gpu_name)) board_of(run.challenge, run.gpu_name).runs.push_back(run);
  }
  std::vector<SavedResult> saved;
  gather_saved(saved_dirs, scope, saved, data.notes);
  for (auto& s : saved) board_of(s.record.challenge, s.record.gpu_name).saved.push_back(std::move(s));

  std::map<std::string, std::optional<Challenge>> specs;
  std::map<std::string, std::pair<std::optional<Calibration>, std::string>> ceilings;
  for (auto& [key, b] : boards) {
    if (!specs.count(b.challenge)) {
      std::optional<Challenge>& spec = specs[b.challenge];
      std::error_code ec;
      if (fs::is_regular_file(challenges_root / b.challenge / "spec.json", ec)) {
        try {
          spec = load_challenge(challenges_root / b.challenge);
        } catch (const std::exception& ex) {
          data.notes.push_back(fmt::format("the spec of {} could not be loaded, so its title and case sizes are "
                                           "missing: {}",
                                           b.challenge, ex.what()));
        }
      }
    }
    b.spec = specs[b.challenge];
    if (!ceilings.count(b.gpu_name)) {
      auto& [calibration, note] = ceilings[b.gpu_name];
      try {
        calibration = calibrations.find(b.gpu_name);
        if (!calibration)
          note = fmt::format("no calibration of {} is stored in {} (`judge calibrate` on that GPU measures its "
                             "ceilings)",
                             b.gpu_name, calibrations.path().string());
        else if (!calibration->plausible()) {
          note = fmt::format("the calibration of {} in {} has figures that are not positive; `judge calibrate "
                             "--force` on that GPU measures again",
                             b.gpu_name, calibrations.path().string());
          calibration.reset();
        }
      } catch (const std::exception& ex) {
        note = ex.what();
      }
    }
    std::tie(b.calibration, b.calibration_note) = ceilings[b.gpu_name];
    data.boards.push_back(std::move(b));
  }
  return data;
}

void write_html_report(const ReportData& data, std::ostream& out) {
  Page page(out);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>judge report</title>\n<style>"
      << svg::base_stylesheet() << kStyle << "</style>\n</head>\n<body>\n<header>\n<h1>judge report</h1>\n";
  out << fmt::format("<p class=\"meta\">Generated {} UTC by judge {} from <code>{}</code>; GPU ceilings from "
                     "<code>{}</code>.</p>\n",
                     e(when(data.generated_at)), e(data.judge_version), e(data.database), e(data.calibration_file));
  out << "</header>\n";
  if (!data.notes.empty()) {
    out << "<ul class=\"notes\">\n";
    for (const auto& n : data.notes) out << "<li class=\"note\">" << prose(n) << "</li>\n";
    out << "</ul>\n";
  }
  if (data.boards.empty()) {
    out << fmt::format("<p class=\"empty\">No accepted submissions in <code>{}</code> yet: <code>judge submit "
                       "&lt;challenge&gt; &lt;file&gt;</code> records one.</p>\n",
                       e(data.database));
  } else {
    out << "<nav>\n<ul>\n";
    for (std::size_t i = 0; i < data.boards.size(); ++i) {
      const BoardReport& b = data.boards[i];
      const std::size_t users = b.ranking.size();
      out << fmt::format("<li><a href=\"#board-{}\">{} on {}</a> <span class=\"meta\">{} {}, {} {}</span></li>\n", i,
                         e(b.challenge), e(b.gpu_name), users, users == 1 ? "user" : "users",
                         b.runs.size() + b.saved.size(), b.runs.size() + b.saved.size() == 1 ? "run" : "runs");
    }
    if (!data.ladders.empty()) out << "<li><a href=\"#ladders\">Ladders</a></li>\n";
    out << "</ul>\n</nav>\n";
  }
  for (std::size_t i = 0; i < data.boards.size(); ++i) board_section(data.boards[i], i, page);
  if (!data.ladders.empty()) ladders_section(data.ladders, page);
  out << "</body>\n</html>\n";
}

}  // namespace judge
