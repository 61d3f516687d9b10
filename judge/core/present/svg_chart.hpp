#pragma once
// Charts as SVG, for the HTML report and as files of their own (`judge ladder --chart`): a plot area with axes
// (linear or logarithmic), ticks, grid and axis titles, and in it lines, bars, markers and labels placed in data
// coordinates. No script and no external resource. Styling comes from CSS classes (the page's stylesheet, or one
// embedded in the SVG when it stands alone) plus an optional inline style per element for colours that vary by
// series.
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace judge::svg {

struct Tick {
  double value = 0;
  std::string label;
};

struct Axis {
  std::string title;  // "arithmetic intensity (FLOP/byte)"
  double lo = 0;      // the range shown; a log axis needs 0 < lo < hi
  double hi = 1;
  bool log = false;
  std::vector<Tick> ticks;    // labelled, with a grid line
  std::vector<double> minor;  // grid lines only
};

using Labeller = std::function<std::string(double)>;

// A logarithmic axis for data in [lo, hi] (both > 0), widened a little so no point sits on the frame, then out to
// values of the 1-2-5 series (1-1.5-2-3-5-7 within a factor of five), each a tick; over more than three and a half
// decades only the powers of ten are ticks and 2..9 times them minor lines. A single value still gets a range
// around it.
Axis log_axis(std::string title, double lo, double hi, const Labeller& label);
// A linear axis for data in [lo, hi]: out to multiples of a round step (1, 2 or 5 times a power of ten) giving
// about five ticks. Bars start at zero, so a bar chart's axis is linear_axis(title, 0, highest).
Axis linear_axis(std::string title, double lo, double hi, const Labeller& label);
// A time axis for instants in [t0, t1] (seconds since the epoch, UTC): ticks at round steps (minutes to years)
// labelled with dates, or with times of day when the range is shorter than two days.
Axis time_axis(std::string title, double t0, double t1);
// A category axis: one tick per name at 0, 1, ... with half a step of room either side.
Axis category_axis(std::string title, const std::vector<std::string>& names);

// Tick labels: "0.01", "1", "250", "10000" (plain, up to 6 significant digits); with SI prefixes "10 m", "1", "100 G",
// "1 T" (for values in base units: FLOP/s, seconds).
std::string plain_label(double v);
std::string si_label(double v);

// The colour of series i (a case, a user): ten that stay apart, then again from the first.
std::string series_colour(std::size_t i);

// The rules every chart needs (background, grid, frame, tick labels, axis titles, caption), for `svg.chart`; a page or
// a standalone file adds its own for what it draws.
std::string_view base_stylesheet();

enum class Marker { dot, ring, diamond };
enum class Anchor { start, middle, end };

// Extra attributes of an element, e.g. {"data-case", "b_1024"}; values are escaped here, names must be constants.
using Attributes = std::vector<std::pair<std::string, std::string>>;

class Chart {
 public:
  // id: unique within the page (it names the clip path); width and height in CSS pixels. A caption, when given, is
  // drawn above the plot area.
  Chart(std::string id, int width, int height, Axis x, Axis y, std::string caption = {});

  // Pixel position of a data coordinate.
  double px(double x) const;
  double py(double y) const;

  // A line through points given in data coordinates, clipped to the plot area (so a roof may run past it).
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view css_class,
                std::string_view style = {});
  // A horizontal line across the whole plot area at y (a ceiling, a reference).
  void hline(double y, std::string_view css_class, std::string_view style = {});
  // A bar centred on x, `width` wide in x's data units, from y0 to y1, with a tooltip (title; escaped) and
  // attributes; clipped to the plot area like the lines.
  void bar(double x, double width, double y0, double y1, std::string_view css_class, const Attributes& attributes,
           std::string_view title, std::string_view style = {});
  // A marker at a data point, with a tooltip (title; escaped) and attributes the page's tests can find it by.
  void marker(double x, double y, Marker shape, std::string_view css_class, const Attributes& attributes,
              std::string_view title, std::string_view style = {});
  // Text at a data point, shifted by (dx, dy) pixels and rotated by angle_deg about that point; escaped.
  void text(double x, double y, std::string_view content, std::string_view css_class, Anchor anchor = Anchor::start,
            double dx = 0, double dy = 0, double angle_deg = 0, std::string_view style = {});

  // The <svg> element: grid, frame, axes with ticks and titles, then everything added, in order.
  std::string render(std::string_view description) const;
  // The chart as an SVG file of its own: an XML declaration, then the <svg> element with `stylesheet` embedded and
  // a white background, so that it reads the same in an image viewer as in a browser.
  std::string render_standalone(std::string_view description, std::string_view stylesheet) const;

  int plot_left() const { return left_; }
  int plot_right() const { return width_ - right_; }
  int plot_top() const { return top_; }
  int plot_bottom() const { return height_ - bottom_; }

 private:
  std::string id_;
  int width_;
  int height_;
  int left_ = 78, right_ = 16, top_ = 14, bottom_ = 52;
  Axis x_;
  Axis y_;
  std::string caption_;
  std::string clipped_;  // lines, inside the plot area's clip path
  std::string overlay_;  // markers and text, above the lines and not clipped (markers are placed inside the range)

  std::string markup(std::string_view description, std::string_view stylesheet) const;
};

}  // namespace judge::svg
