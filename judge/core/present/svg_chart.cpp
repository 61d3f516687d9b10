#include "judge/core/present/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "judge/core/base/error.hpp"
#include "judge/core/present/html_escape.hpp"

namespace judge::svg {

namespace {

// Rounding slack when comparing with round values computed through pow().
constexpr double kSlack = 1e-9;

double pow10(int e) { return std::pow(10.0, e); }

// Round values for the ticks of a log axis: each decade's multiples of 1, 2, 5, or for a narrow range the finer
// 1, 1.5, 2, 3, 5, 7.
using Series = std::vector<double>;
const Series kCoarse{1, 2, 5};
const Series kFine{1, 1.5, 2, 3, 5, 7};

// The largest value of the series at most v, and the smallest at least v.
double series_floor(const Series& series, double v) {
  const int d = static_cast<int>(std::floor(std::log10(v) + kSlack));
  for (auto m = series.rbegin(); m != series.rend(); ++m)
    if (*m * pow10(d) <= v * (1 + kSlack)) return *m * pow10(d);
  return series.back() * pow10(d - 1);
}
double series_ceil(const Series& series, double v) {
  const int d = static_cast<int>(std::floor(std::log10(v) - kSlack));
  for (double m : series)
    if (m * pow10(d) >= v * (1 - kSlack)) return m * pow10(d);
  return pow10(d + 1);
}
double series_next(const Series& series, double v) { return series_ceil(series, v * (1 + 1e-6)); }

std::string number(double v) { return fmt::format("{:.1f}", v); }

std::string attributes_markup(const Attributes& attributes) {
  std::string s;
  for (const auto& [name, value] : attributes) s += fmt::format(" {}=\"{}\"", name, html_escape(value));
  return s;
}

std::string style_markup(std::string_view style) {
  return style.empty() ? std::string() : fmt::format(" style=\"{}\"", html_escape(style));
}

const char* anchor_name(Anchor a) {
  switch (a) {
    case Anchor::start: return "start";
    case Anchor::middle: return "middle";
    case Anchor::end: return "end";
  }
  return "start";
}

std::string utc_text(double t, const char* format) {
  std::time_t seconds = static_cast<std::time_t>(std::floor(t));
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

}  // namespace

std::string series_colour(std::size_t i) {
  static constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                             "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kPalette[i % std::size(kPalette)];
}

std::string_view base_stylesheet() {
  return R"css(svg.chart { background: #fff; }
svg.chart .background { fill: #fff; }
svg.chart .grid line { stroke: #e6e9ee; stroke-width: 1; }
svg.chart .grid line.minor { stroke: #f2f4f7; }
svg.chart .frame { fill: none; stroke: #9aa3ae; }
svg.chart .tick-label { font-size: 11px; fill: #5f6b7a; }
svg.chart .axis-label { font-size: 12.5px; fill: #1d2330; }
svg.chart .caption { font-size: 14px; font-weight: 600; fill: #1d2330; }
)css";
}

std::string plain_label(double v) { return fmt::format("{:.6g}", v); }

std::string si_label(double v) {
  if (v == 0 || !std::isfinite(v)) return fmt::format("{:g}", v);
  static constexpr const char* kPrefixes[] = {"p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E"};
  int group = static_cast<int>(std::floor(std::log10(std::fabs(v)) / 3 + kSlack));
  group = std::clamp(group, -4, 6);
  const double mantissa = v / std::pow(1000.0, group);
  const char* prefix = kPrefixes[group + 4];
  return *prefix ? fmt::format("{:.3g} {}", mantissa, prefix) : fmt::format("{:.3g}", mantissa);
}

Axis log_axis(std::string title, double lo, double hi, const Labeller& label) {
  if (!(lo > 0) || !(hi > 0) || !std::isfinite(lo) || !std::isfinite(hi))
    JUDGE_THROW(Error, "log_axis '{}': the range [{}, {}] must be positive and finite", title, lo, hi);
  if (hi < lo) std::swap(lo, hi);
  Axis a;
  a.title = std::move(title);
  a.log = true;
  lo /= 1.12;
  hi *= 1.12;
  const Series& series = std::log10(hi / lo) > 0.7 ? kCoarse : kFine;
  a.lo = series_floor(series, lo);
  a.hi = series_ceil(series, hi);
  if (std::log10(a.hi / a.lo) <= 3.5) {
    for (double v = a.lo; v <= a.hi * (1 + kSlack); v = series_next(series, v)) a.ticks.push_back({v, label(v)});
    return a;
  }
  // Too many values of the series to label: label the powers of ten, draw the rest as minor lines.
  for (int d = static_cast<int>(std::floor(std::log10(a.lo) - kSlack)); pow10(d) <= a.hi * (1 + kSlack); ++d)
    for (int m = 1; m <= 9; ++m) {
      const double v = m * pow10(d);
      if (v < a.lo * (1 - kSlack) || v > a.hi * (1 + kSlack)) continue;
      if (m == 1)
        a.ticks.push_back({v, label(v)});
      else
        a.minor.push_back(v);
    }
  return a;
}

Axis linear_axis(std::string title, double lo, double hi, const Labeller& label) {
  if (!std::isfinite(lo) || !std::isfinite(hi))
    JUDGE_THROW(Error, "linear_axis '{}': the range [{}, {}] must be finite", title, lo, hi);
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) {  // a single value still gets a range around it (or, at zero, above it)
    const double pad = lo == 0 ? 1 : std::fabs(lo) / 2;
    hi += pad;
    if (lo != 0) lo -= pad;
  }
  Axis a;
  a.title = std::move(title);
  const double step = series_ceil(kCoarse, (hi - lo) / 5);
  a.lo = std::floor(lo / step + kSlack) * step;
  a.hi = std::ceil(hi / step - kSlack) * step;
  const long steps = std::lround((a.hi - a.lo) / step);
  for (long k = 0; k <= steps; ++k) {
    double v = a.lo + static_cast<double>(k) * step;
    if (std::fabs(v) < step * kSlack) v = 0;  // not 1e-17 or -0
    a.ticks.push_back({v, label(v)});
  }
  return a;
}

Axis time_axis(std::string title, double t0, double t1) {
  if (t1 < t0) std::swap(t0, t1);
  Axis a;
  a.title = std::move(title);
  // A single run (or runs minutes apart) still gets an hour of axis, centred on it.
  constexpr double kMinSpan = 3600;
  double span = t1 - t0;
  if (span < kMinSpan) {
    const double mid = (t0 + t1) / 2;
    t0 = mid - kMinSpan / 2;
    t1 = mid + kMinSpan / 2;
    span = kMinSpan;
  }
  a.lo = t0 - span * 0.05;
  a.hi = t1 + span * 0.05;
  constexpr double kDay = 86400;
  static constexpr double kSteps[] = {60,       300,      600,      900,       1800,      3600,       2 * 3600,
                                      3 * 3600, 6 * 3600, 12 * 3600, kDay,     2 * kDay,  7 * kDay,   14 * kDay,
                                      28 * kDay, 91 * kDay, 182 * kDay, 364 * kDay, 728 * kDay, 1820 * kDay};
  double step = kSteps[std::size(kSteps) - 1];
  for (double s : kSteps)
    if ((a.hi - a.lo) / s <= 6) {
      step = s;
      break;
    }
  const char* format = step >= kDay ? "%Y-%m-%d" : (a.hi - a.lo) >= 2 * kDay ? "%m-%d %H:%M" : "%H:%M";
  for (double t = std::ceil(a.lo / step) * step; t <= a.hi; t += step) a.ticks.push_back({t, utc_text(t, format)});
  return a;
}

Axis category_axis(std::string title, const std::vector<std::string>& names) {
  Axis a;
  a.title = std::move(title);
  a.lo = -0.5;
  a.hi = names.empty() ? 0.5 : static_cast<double>(names.size()) - 0.5;
  for (std::size_t i = 0; i < names.size(); ++i) a.ticks.push_back({static_cast<double>(i), names[i]});
  return a;
}

Chart::Chart(std::string id, int width, int height, Axis x, Axis y, std::string caption)
    : id_(std::move(id)), width_(width), height_(height), x_(std::move(x)), y_(std::move(y)),
      caption_(std::move(caption)) {
  if (!caption_.empty()) top_ += 26;
}

double Chart::px(double x) const {
  const double f = x_.log ? std::log10(x / x_.lo) / std::log10(x_.hi / x_.lo) : (x - x_.lo) / (x_.hi - x_.lo);
  return plot_left() + f * (plot_right() - plot_left());
}

double Chart::py(double y) const {
  const double f = y_.log ? std::log10(y / y_.lo) / std::log10(y_.hi / y_.lo) : (y - y_.lo) / (y_.hi - y_.lo);
  return plot_bottom() - f * (plot_bottom() - plot_top());
}

void Chart::polyline(const std::vector<std::pair<double, double>>& points, std::string_view css_class,
                     std::string_view style) {
  std::string coordinates;
  for (const auto& [x, y] : points)
    coordinates += fmt::format("{}{},{}", coordinates.empty() ? "" : " ", number(px(x)), number(py(y)));
  clipped_ += fmt::format("<polyline class=\"{}\" points=\"{}\"{}/>\n", css_class, coordinates, style_markup(style));
}

void Chart::hline(double y, std::string_view css_class, std::string_view style) {
  polyline({{x_.lo, y}, {x_.hi, y}}, css_class, style);
}

void Chart::bar(double x, double width, double y0, double y1, std::string_view css_class,
                const Attributes& attributes, std::string_view title, std::string_view style) {
  const double left = px(x - width / 2), right = px(x + width / 2);
  const double top = std::min(py(y0), py(y1)), bottom = std::max(py(y0), py(y1));
  const std::string tooltip = title.empty() ? std::string() : fmt::format("<title>{}</title>", html_escape(title));
  clipped_ += fmt::format("<rect class=\"{}\"{}{} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{}</rect>\n", css_class,
                          attributes_markup(attributes), style_markup(style), number(left), number(top),
                          number(right - left), number(bottom - top), tooltip);
}

void Chart::marker(double x, double y, Marker shape, std::string_view css_class, const Attributes& attributes,
                   std::string_view title, std::string_view style) {
  const double cx = px(x), cy = py(y);
  const std::string common =
      fmt::format("class=\"{}\"{}{}", css_class, attributes_markup(attributes), style_markup(style));
  const std::string tooltip = title.empty() ? std::string() : fmt::format("<title>{}</title>", html_escape(title));
  switch (shape) {
    case Marker::dot:
    case Marker::ring:
      overlay_ += fmt::format("<circle {} cx=\"{}\" cy=\"{}\" r=\"{}\">{}</circle>\n", common, number(cx),
                              number(cy), shape == Marker::dot ? 5 : 4.5, tooltip);
      break;
    case Marker::diamond: {
      constexpr double r = 6;
      overlay_ += fmt::format("<polygon {} points=\"{},{} {},{} {},{} {},{}\">{}</polygon>\n", common, number(cx),
                              number(cy - r), number(cx + r), number(cy), number(cx), number(cy + r), number(cx - r),
                              number(cy), tooltip);
      break;
    }
  }
}

void Chart::text(double x, double y, std::string_view content, std::string_view css_class, Anchor anchor, double dx,
                 double dy, double angle_deg, std::string_view style) {
  const double tx = px(x) + dx, ty = py(y) + dy;
  const std::string rotate =
      angle_deg == 0 ? std::string()
                     : fmt::format(" transform=\"rotate({} {} {})\"", number(angle_deg), number(tx), number(ty));
  overlay_ += fmt::format("<text class=\"{}\" x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}{}>{}</text>\n", css_class,
                         number(tx), number(ty), anchor_name(anchor), rotate, style_markup(style),
                         html_escape(content));
}

std::string Chart::render(std::string_view description) const { return markup(description, {}); }

std::string Chart::render_standalone(std::string_view description, std::string_view stylesheet) const {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + markup(description, stylesheet);
}

std::string Chart::markup(std::string_view description, std::string_view stylesheet) const {
  const int l = plot_left(), r = plot_right(), t = plot_top(), b = plot_bottom();
  std::string s = fmt::format(
      "<svg class=\"chart\" id=\"{0}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{1}\" height=\"{2}\" "
      "viewBox=\"0 0 {1} {2}\" role=\"img\" aria-label=\"{3}\">\n",
      html_escape(id_), width_, height_, html_escape(description));
  if (!stylesheet.empty())
    s += fmt::format("<style><![CDATA[\n{}\n]]></style>\n<rect class=\"background\" x=\"0\" y=\"0\" width=\"{}\" "
                     "height=\"{}\"/>\n",
                     stylesheet, width_, height_);
  s += fmt::format(
      "<defs><clipPath id=\"{0}-plot\"><rect x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"{4}\"/></clipPath></defs>\n",
      html_escape(id_), l, t, r - l, b - t);
  if (!caption_.empty())
    s += fmt::format("<text class=\"caption\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", width_ / 2, 20,
                     html_escape(caption_));
  s += "<g class=\"grid\">\n";
  for (double v : x_.minor)
    s += fmt::format("<line class=\"minor\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", number(px(v)), t, b);
  for (double v : y_.minor)
    s += fmt::format("<line class=\"minor\" x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\"/>\n", number(py(v)), l, r);
  for (const auto& tick : x_.ticks)
    s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", number(px(tick.value)), t, b);
  for (const auto& tick : y_.ticks)
    s += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\"/>\n", number(py(tick.value)), l, r);
  s += "</g>\n";
  s += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", l, t, r - l, b - t);
  s += "<g class=\"axis x-axis\">\n";
  for (const auto& tick : x_.ticks)
    s += fmt::format("<text class=\"tick-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     number(px(tick.value)), b + 16, html_escape(tick.label));
  s += fmt::format("<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", (l + r) / 2,
                   height_ - 10, html_escape(x_.title));
  s += "</g>\n<g class=\"axis y-axis\">\n";
  for (const auto& tick : y_.ticks)
    s += fmt::format("<text class=\"tick-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", l - 6,
                     number(py(tick.value) + 4), html_escape(tick.label));
  const int yx = 16, yy = (t + b) / 2;
  s += fmt::format(
      "<text class=\"axis-label\" x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" transform=\"rotate(-90 {0} {1})\">{2}"
      "</text>\n",
      yx, yy, html_escape(y_.title));
  s += "</g>\n";
  s += fmt::format("<g class=\"plot\" clip-path=\"url(#{}-plot)\">\n{}</g>\n", html_escape(id_), clipped_);
  s += overlay_;
  s += "</svg>\n";
  return s;
}

}  // namespace judge::svg
