#include "judge/core/base/phase_times.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace judge {

namespace {

// When this process started, in CLOCK_BOOTTIME seconds: field 22 of /proc/self/stat, in clock ticks since boot.
double process_start_s() {
  std::ifstream in("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
  }
  return std::strtod(field.c_str(), nullptr) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace

bool phase_times_on() {
  static const bool on = std::getenv("JUDGE_PHASE_TIMES") != nullptr;
  return on;
}

void note_phase(std::string_view what) {
  if (!phase_times_on()) return;
  static const double start = process_start_s();
  timespec now{};
  ::clock_gettime(CLOCK_BOOTTIME, &now);
  std::fprintf(stderr, "judge phase-times: %.3f %.*s\n", now.tv_sec + now.tv_nsec * 1e-9 - start,
               static_cast<int>(what.size()), what.data());
}

}  // namespace judge
