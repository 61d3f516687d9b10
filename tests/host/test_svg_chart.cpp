// The report's charts: log axes land on round values with readable labels, time axes on round steps, data maps to
// the plot area, and everything a user wrote is escaped in the SVG.
#include "judge/core/present/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "judge/core/base/error.hpp"

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

TEST(SvgChart, LinearAxisStepsByRoundValues) {
  Axis a = linear_axis("GB/s", 0, 3432, plain_label);
  EXPECT_FALSE(a.log);
  EXPECT_DOUBLE_EQ(a.lo, 0);
  EXPECT_DOUBLE_EQ(a.hi, 4000);
  EXPECT_EQ(labels(a), (std::vector<std::string>{"0", "1000", "2000", "3000", "4000"}));
  EXPECT_EQ(labels(linear_axis("x", 0, 0.9, plain_label)),
            (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"}));
  EXPECT_EQ(labels(linear_axis("x", -3, 12, plain_label)),
            (std::vector<std::string>{"-5", "0", "5", "10", "15"}));
  Axis single = linear_axis("x", 0, 0, plain_label);
  EXPECT_DOUBLE_EQ(single.lo, 0);
  EXPECT_GT(single.hi, 0) << "one value still gets a range";
  EXPECT_THROW(linear_axis("x", 0, std::nan(""), plain_label), Error);
}

TEST(SvgChart, BarsAndHorizontalLinesInDataCoordinates) {
  Chart chart("bars", 600, 400, category_axis("rung", {"a", "b"}), linear_axis("GB/s", 0, 100, plain_label),
              "a caption & more");
  chart.bar(1, 0.5, 0, 50, "bar", {{"data-rung", "b"}}, "b: 50 GB/s", "fill:#123456");
  chart.hline(80, "ceiling");
  const std::string svg = chart.render("bars");
  const double left = chart.px(0.75), right = chart.px(1.25), top = chart.py(50), bottom = chart.py(0);
  EXPECT_NE(svg.find(fmt::format("<rect class=\"bar\" data-rung=\"b\" style=\"fill:#123456\" x=\"{:.1f}\" y=\"{:.1f}\" "
                                 "width=\"{:.1f}\" height=\"{:.1f}\"><title>b: 50 GB/s</title></rect>",
                                 left, top, right - left, bottom - top)),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(fmt::format("<polyline class=\"ceiling\" points=\"{:.1f},{:.1f} {:.1f},{:.1f}\"/>",
                                 chart.px(-0.5), chart.py(80), chart.px(1.5), chart.py(80))),
            std::string::npos)
      << "across the whole plot area\n"
      << svg;
  EXPECT_NE(svg.find(">a caption &amp; more</text>"), std::string::npos) << svg;
  EXPECT_GT(chart.plot_top(), 14) << "the caption takes room above the plot";
}

TEST(SvgChart, StandaloneCarriesItsStylesheetAndBackground) {
  Chart chart("alone", 300, 200, category_axis("rung", {"a"}), linear_axis("GB/s", 0, 1, plain_label));
  const std::string inline_svg = chart.render("d");
  EXPECT_EQ(inline_svg.find("<style"), std::string::npos) << "inside a page, the page styles it";
  const std::string svg = chart.render_standalone("d", base_stylesheet());
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u) << svg;
  EXPECT_NE(svg.find("<style><![CDATA[\nsvg.chart"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<rect class=\"background\" x=\"0\" y=\"0\" width=\"300\" height=\"200\"/>"),
            std::string::npos);
  EXPECT_NE(base_stylesheet().find(".frame { fill: none"), std::string::npos)
      << "without it a standalone frame would be filled black";
}

}  // namespace
}  // namespace judge::svg
