#pragma once
// Builds ahead for the GPU suite's verdict tests, as `judge batch` builds ahead for its runs: many submissions
// compiled at once, one nvcc per core, into one build cache, for the architecture `judge` picks for device 0. The
// fixtures gpu_test_example_builds and CorpusBuilds (tests/CMakeLists.txt) use it so that the tests after them, each
// holding a slot of the GPU, spend it judging rather than waiting for nvcc.
#include <filesystem>
#include <string>
#include <vector>

#include "judge/core/build/build.hpp"

namespace judge::testing {

struct AheadBuild {
  std::string challenge;        // a folder of challenges/
  std::filesystem::path file;   // the submission
};

struct AheadResult {
  BuildResult build;  // ok == false: nvcc rejected it (diagnostics) or could not be run (error)
  std::string error;  // what build_solution threw, if it did
};

// The architecture `judge run` and `judge submit` build for on device 0 (the only device a GPU test sees), from the
// worker's probe. Throws when no device is found.
std::string device_build_arch();

// Builds every submission into `cache` for `arch`, in parallel; the results in the order of `builds`.
std::vector<AheadResult> build_ahead(const std::vector<AheadBuild>& builds, const std::filesystem::path& cache,
                                     const std::string& arch);

}  // namespace judge::testing
