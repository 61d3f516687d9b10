#include "judge/core/base/progress_line.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace judge {

void ProgressLine::update(const std::string& step, double fraction) {
  constexpr int kBar = 20;
  fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  int filled = static_cast<int>(std::lround(fraction * kBar));
  std::string text = fmt::format("[{}{}] {:3.0f}% {}", std::string(filled, '#'), std::string(kBar - filled, '.'),
                                 fraction * 100, step);
  std::size_t width = text.size();
  if (width < width_) text += std::string(width_ - width, ' ');  // erase what a longer label left behind
  out_ << '\r' << text << std::flush;
  width_ = width;
}

void ProgressLine::finish() {
  if (width_ == 0) return;
  out_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
  width_ = 0;
}

}  // namespace judge
