#pragma once
#include <vector>

#include "judge/core/measure/result.hpp"

namespace judge {

// Properties of every visible CUDA device (empty when there is none). Creates no context.
std::vector<DeviceInfo> list_devices();

}  // namespace judge
