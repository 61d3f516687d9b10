#pragma once
// Glue: the generated translation unit that gives every submission one uniform entry point,
// `extern "C" void judge_entry(void* const* args)`, and the solve.h that LeetGPU's older starters include.
//
// The glue declares nothing before the user's file, so each form LeetGPU has used compiles unchanged: today's
// `extern "C" void solve(...)`, the pre-2025 `#include "solve.h"` with a C++-linkage definition (solve.h declares
// solve() extern "C", which the later definition inherits), and a plain C++ solve(). After the user's file,
// judge_entry calls solve() with the challenge's arguments: buffers as non-const `T*` (they convert to `const T*`,
// so constness is the user's choice, as it is through LeetGPU's ctypes), and each scalar wrapped in
// `judge_scalar_arg<T>`, which converts only to types that hold every value of T (int -> long, size_t, double;
// float -> double) and throws at run time, naming the parameter, when a negative value meets an unsigned one.
// A solve() that these arguments cannot call is a compile error at the generated call, which nvcc reports under the
// name kGlueCallName with one line per parameter.
#include <filesystem>
#include <string>

#include "judge/core/challenge/spec.hpp"

namespace judge {

// What nvcc calls the generated call of solve() in its messages (a #line directive), instead of a temporary path.
inline constexpr const char* kGlueCallName = "judge-calls-your-solve";

// The glue translation unit for `source`.
std::string make_glue(const Challenge& challenge, const std::filesystem::path& source);

// solve.h as LeetGPU's older starters expected it: the CUDA headers, <cstdint>, <cstddef> and solve() declared
// extern "C". It is written beside the glue, whose directory is on nvcc's include path.
std::string make_solve_header(const Challenge& challenge);

// What the judge adds to a failed build's diagnostics that mention solve(): the declaration the judge calls and what
// a submission's declaration may change.
std::string signature_hint(const Challenge& challenge);

}  // namespace judge
