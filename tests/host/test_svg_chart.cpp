// The report's charts: log axes land on round values with readable labels, time axes on round steps, data maps to
// the plot area, and everything a user wrote is escaped in the SVG.
#include "judge/core/svg_chart.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "judge/core/error.hpp"

namespace judge::svg {
namespace {

std::vector<std::string> labels(const Axis& a) {
  std::vector<std::string> out;
  for (const auto& t : a.ticks) out.push_back(t.label);
  return out;
}

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

TEST(SvgChart, LogAxisOverManyDecadesTicksEachPowerOfTen) {
  Axis a = log_axis("intensity", 0.003, 40, plain_label);
  EXPECT_TRUE(a.log);
  EXPECT_DOUBLE_EQ(a.lo, 0.002);
  EXPECT_DOUBLE_EQ(a.hi, 50);
  EXPECT_EQ(labels(a), (std::vector<std::string>{"0.01", "0.1", "1", "10"}));
  EXPECT_EQ(a.minor.size(), 8u + 8 + 8 + 8 + 4) << "2..9 times 0.001, 0.01, 0.1 and 1, then 20..50";
}

TEST(SvgChart, LogAxisOverAFewDecadesUsesRoundValuesOfEachDecade) {
  EXPECT_EQ(labels(log_axis("ms", 1.2, 3.5, plain_label)), (std::vector<std::string>{"1", "1.5", "2", "3", "5"}))
      << "finer within a factor of five";
  EXPECT_EQ(labels(log_axis("ms", 0.03, 1.5, plain_label)),
            (std::vector<std::string>{"0.02", "0.05", "0.1", "0.2", "0.5", "1", "2"}));
  Axis a = log_axis("intensity", 0.3, 40, plain_label);
  EXPECT_DOUBLE_EQ(a.lo, 0.2);
  EXPECT_DOUBLE_EQ(a.hi, 50);
  EXPECT_EQ(labels(a), (std::vector<std::string>{"0.2", "0.5", "1", "2", "5", "10", "20", "50"}));
  EXPECT_TRUE(a.minor.empty());
}

TEST(SvgChart, LogAxisKeepsDataOffTheFrame) {
  for (double v : {1.0, 2.0, 5.0, 10.0, 3.7, 1e-6, 6.7e13}) {
    Axis a = log_axis("v", v, v, si_label);
    EXPECT_LT(a.lo, v) << v;
    EXPECT_GT(a.hi, v) << v;
    EXPECT_GE(a.ticks.size(), 2u) << v;
  }
  Axis a = log_axis("v", 1, 100, plain_label);
  EXPECT_LT(a.lo, 1);
  EXPECT_GT(a.hi, 100);
}

TEST(SvgChart, LogAxisRefusesARangeItCannotDraw) {
  EXPECT_THROW(log_axis("v", 0, 10, plain_label), Error);
  EXPECT_THROW(log_axis("v", -1, 10, plain_label), Error);
}

TEST(SvgChart, TickLabels) {
  EXPECT_EQ(si_label(1e12), "1 T");
  EXPECT_EQ(si_label(2.5e11), "250 G");
  EXPECT_EQ(si_label(5), "5");
  EXPECT_EQ(si_label(0.01), "10 m");
  EXPECT_EQ(si_label(1e-6), "1 µ");
  EXPECT_EQ(si_label(0), "0");
  EXPECT_EQ(plain_label(0.01), "0.01");
  EXPECT_EQ(plain_label(1000), "1000");
  EXPECT_EQ(plain_label(10000), "10000");
  EXPECT_EQ(plain_label(0.5), "0.5");
}

TEST(SvgChart, TimeAxisOfOneInstantShowsTimesOfDayAroundIt) {
  const double noon = 1746100800;  // 2025-05-01 12:00:00 UTC
  Axis a = time_axis("recorded (UTC)", noon, noon);
  EXPECT_FALSE(a.log);
  EXPECT_LT(a.lo, noon);
  EXPECT_GT(a.hi, noon);
  ASSERT_GE(a.ticks.size(), 2u);
  EXPECT_TRUE(std::any_of(a.ticks.begin(), a.ticks.end(), [](const Tick& t) { return t.label == "12:00"; }))
      << a.ticks.front().label;
}

TEST(SvgChart, TimeAxisOverDaysShowsDates) {
  const double day = 86400, start = 1746057600;  // 2025-05-01 00:00:00 UTC
  Axis a = time_axis("recorded (UTC)", start + 3600, start + 10 * day);
  ASSERT_GE(a.ticks.size(), 3u);
  EXPECT_LE(a.ticks.size(), 7u);
  EXPECT_EQ(a.ticks.front().label.size(), 10u) << a.ticks.front().label;
  EXPECT_TRUE(std::any_of(a.ticks.begin(), a.ticks.end(), [](const Tick& t) { return t.label == "2025-05-04"; }))
      << "every other day, at midnight UTC";
  for (const auto& t : a.ticks) {
    EXPECT_GE(t.value, a.lo);
    EXPECT_LE(t.value, a.hi);
  }
}

TEST(SvgChart, DataMapsOntoThePlotArea) {
  Axis x;
  x.log = true;
  x.lo = 0.1;
  x.hi = 1000;
  Axis y;
  y.lo = 0;
  y.hi = 10;
  Chart chart("c", 600, 400, x, y);
  EXPECT_DOUBLE_EQ(chart.px(x.lo), chart.plot_left());
  EXPECT_DOUBLE_EQ(chart.px(x.hi), chart.plot_right());
  EXPECT_DOUBLE_EQ(chart.px(10), (chart.plot_left() + chart.plot_right()) / 2.0) << "log: 10 is halfway";
  EXPECT_DOUBLE_EQ(chart.py(0), chart.plot_bottom());
  EXPECT_DOUBLE_EQ(chart.py(10), chart.plot_top());
  EXPECT_DOUBLE_EQ(chart.py(5), (chart.plot_top() + chart.plot_bottom()) / 2.0);
}

TEST(SvgChart, RenderHasAxesTicksAndEscapedContent) {
  const Axis x = log_axis("intensity <FLOP/byte>", 0.1, 100, plain_label), y = log_axis("rate", 1e9, 1e12, si_label);
  Chart chart("roofline-1", 600, 400, x, y);
  chart.polyline({{0.1, 1e9}, {100, 1e12}}, "roof");
  chart.marker(1, 1e10, Marker::dot, "case-point", {{"data-case", "a\"b<c>"}}, "<script>alert(1)</script>");
  chart.marker(1, 2e10, Marker::diamond, "reference-point", {{"data-case", "x"}}, "ref");
  chart.text(10, 1e11, "label & more", "roof-label");
  const std::string svg = chart.render("a chart of <things>");
  EXPECT_EQ(svg.rfind("<svg class=\"chart\" id=\"roofline-1\"", 0), 0u) << svg;
  EXPECT_NE(svg.find("clip-path=\"url(#roofline-1-plot)\""), std::string::npos);
  EXPECT_NE(svg.find("intensity &lt;FLOP/byte&gt;"), std::string::npos);
  EXPECT_NE(svg.find("aria-label=\"a chart of &lt;things&gt;\""), std::string::npos);
  EXPECT_NE(svg.find(">100 G</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">1 T</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("data-case=\"a&quot;b&lt;c&gt;\""), std::string::npos);
  EXPECT_NE(svg.find("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"), std::string::npos);
  EXPECT_NE(svg.find("label &amp; more"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"case-point\""), 1u);
  EXPECT_EQ(count(svg, "class=\"reference-point\""), 1u);
  EXPECT_EQ(count(svg, "class=\"tick-label\""), x.ticks.size() + y.ticks.size());
  EXPECT_EQ(count(svg, "class=\"axis-label\""), 2u);
}

TEST(SvgChart, CategoryAxisTicksEachName) {
  Axis a = category_axis("rung", {"1_naive", "2_tiled", "3_vectorised"});
  EXPECT_EQ(labels(a), (std::vector<std::string>{"1_naive", "2_tiled", "3_vectorised"}));
  EXPECT_DOUBLE_EQ(a.lo, -0.5);
  EXPECT_DOUBLE_EQ(a.hi, 2.5);
}

}  // namespace
}  // namespace judge::svg
