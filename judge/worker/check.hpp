#pragma once
// The output check, on the GPU: every element of an output against the reference's, with the rule in
// judge/core/tolerance.hpp. Counts mismatches, never-written (still poisoned) elements and NaN/Inf where the
// reference is finite, the largest absolute and relative errors, and then the first few mismatches in index order.
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include "judge/core/dtype.hpp"
#include "judge/core/result.hpp"
#include "judge/core/tolerance.hpp"

namespace judge {

constexpr int kMismatchesShown = 8;

// `shape` is the output's shape, used to turn indices into coordinates.
OutputCheck compare_output(const std::string& name, const void* got, const void* expected, DType dtype,
                           std::int64_t count, const std::vector<std::int64_t>& shape, Tolerance tol,
                           cudaStream_t stream);

// Row-major coordinates of a flat index.
std::vector<std::int64_t> coordinates(std::int64_t index, const std::vector<std::int64_t>& shape);

}  // namespace judge
