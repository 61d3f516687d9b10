#pragma once
// The work of a null call: one empty kernel. The worker times a few dozen null calls before the submission is
// loaded, which gives the cost of a call's round trip that is not the submission's (overhead in timing.hpp terms).
#include <cuda_runtime.h>

namespace judge {

cudaError_t launch_null_kernel(cudaStream_t stream);

}  // namespace judge
