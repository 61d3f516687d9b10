#pragma once
#include <vector>

#include "judge/core/measure/result.hpp"

namespace judge {

// Properties of every visible CUDA device (empty when there is none). Creates no context.
std::vector<DeviceInfo> list_devices();

// The probe's answer on stdout, one JSON line: {"devices": [...]}, with "error" when the devices cannot be listed
// (then exit status 1). `judge-probe` and `judge-worker probe` both give it.
int print_probe();

}  // namespace judge
