#pragma once
// The output check, on the GPU. By default every element of an output against the reference's, with the rule in
// judge/core/challenge/tolerance.hpp: counts mismatches, never-written (still poisoned) elements, NaN/Inf where the
// reference is finite (and of those, NaNs computed from the poison), the largest absolute and relative errors, the
// relative L2 error under a norm tolerance, and then the first few mismatches in index order.
//
// A spec may name another checker for an output ("check": "sorted_permutation"): shared ones live in
// judge/worker/checkers/, one that only a challenge needs in reference/<id>.cu; each registers itself with
// JUDGE_CHECKER(name, fn). A checker returns the same OutputCheck, with `message` holding its own diagnosis.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "judge/core/challenge/dtype.hpp"
#include "judge/core/challenge/tolerance.hpp"
#include "judge/core/measure/result.hpp"

namespace judge {

constexpr int kMismatchesShown = 8;

struct CheckRequest {
  std::string name;           // the output's parameter name
  const void* got;            // what solve() left (device)
  const void* expected;       // the reference's result (device)
  DType dtype;
  std::int64_t count;
  std::vector<std::int64_t> shape;  // to turn indices into coordinates
  Tolerance tol;
  cudaStream_t stream;
  std::map<std::string, double> args = {};  // the spec's "check": {"args": ...}, resolved for the case
  // The argument `name`; throws an Error naming the checker's output and the missing argument.
  double arg(const std::string& name) const;
};

// The element-wise check.
OutputCheck compare_output(const CheckRequest& r);

// Runs the checker named `checker` ("" = compare_output). Throws Error for an unknown name.
OutputCheck check_output(const std::string& checker, const CheckRequest& r);

using Checker = std::function<OutputCheck(const CheckRequest&)>;
void register_checker(const std::string& name, Checker fn);
bool has_checker(const std::string& name);

struct CheckerRegistrar {
  CheckerRegistrar(const char* name, Checker fn) { register_checker(name, std::move(fn)); }
};
#define JUDGE_CHECKER(name, fn) static const ::judge::CheckerRegistrar judge_checker_##name(#name, fn);

// Copies an output to the host as doubles (any dtype). For checkers that finish on the host.
std::vector<double> download_as_double(const void* data, DType dtype, std::int64_t count, cudaStream_t stream);

// Row-major coordinates of a flat index.
std::vector<std::int64_t> coordinates(std::int64_t index, const std::vector<std::int64_t>& shape);

}  // namespace judge
