#pragma once
#include <string_view>

namespace judge {
// The judge's version (CMake project version), recorded with every leaderboard entry.
std::string_view judge_version();
}  // namespace judge
