#pragma once
// A progress indicator of one line, redrawn in place: "\r[########............]  40% SGEMM FP32". finish() (or the
// destructor) erases it, so what is printed next starts on a clean line. Meant for a terminal: callers draw it only
// when their output is one (and never under --json).
#include <cstddef>
#include <ostream>
#include <string>

namespace judge {

class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& out) : out_(out) {}
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  void update(const std::string& step, double fraction);
  void finish();

 private:
  std::ostream& out_;
  std::size_t width_ = 0;  // characters drawn last time, 0 when nothing is on the line
};

}  // namespace judge
