#pragma once
// Where the CUDA compiler is: building a submission runs it, and every sandbox policy opens its toolkit.
#include <string>

namespace judge {

// nvcc to use: $JUDGE_NVCC, else nvcc on PATH, else the toolkit found at configure time, else
// /usr/local/cuda/bin/nvcc. Throws Error if none.
std::string find_nvcc();

}  // namespace judge
