#include "judge/core/base/version.hpp"

namespace judge {
std::string_view judge_version() { return JUDGE_VERSION; }
}  // namespace judge
