#pragma once
// Build: the user's solve.cu becomes a shared object for one GPU architecture.
//
// The judge writes a glue file (glue.hpp) that includes the user's file and then defines judge_entry(void* const*
// args), which calls solve() with the challenge's arguments, and a solve.h beside it for LeetGPU's older starters.
// So in one translation unit: a solve() these arguments cannot call is a compile error at the generated call, and
// the judge adds the declaration it calls to the message; a declared but missing solve() is an undefined symbol
// (-z defs). Builds are cached by content: source text, glue, solve.h, flags and compiler version; a cached build is
// used only while its manifest vouches for it (build_manifest.hpp). nvcc runs confined (sandbox/confine.hpp) and
// sees a copy of the submission and the headers beside it, the toolkit and the system's headers, nothing else.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "judge/core/base/nvcc.hpp"  // find_nvcc(), for the callers of build()
#include "judge/core/build/glue.hpp"
#include "judge/core/build/ptxas_report.hpp"
#include "judge/core/challenge/spec.hpp"

namespace judge {

struct BuildRequest {
  std::filesystem::path source;     // the user's .cu
  std::string arch = "sm_90";       // "sm_90", from the device
  std::filesystem::path cache_dir;  // where built objects live
  std::vector<std::string> extra_flags;
  std::string nvcc;                 // empty: find_nvcc()
};

struct BuildResult {
  bool ok = false;
  bool cached = false;
  std::filesystem::path library;  // the shared object (ok only)
  std::string diagnostics;        // nvcc's output but ptxas's -v report, plus the judge's note on signature errors
  std::vector<PtxasKernel> ptxas; // ptxas's report: each kernel's registers, spills, shared memory
  std::string command;            // the nvcc command line, for the curious and for bug reports
  std::string source_hash;        // sha256 of the source text
  std::string source_text;
  std::string library_sha256;     // of the library as the judge built it (ok only): what the loader checks
  std::string cache_note;         // why a cached build was not used but built again (empty when none was)
  std::string sandbox;            // what confined nvcc: "landlock", "bubblewrap" or "none: <why>" (sandbox/confine.hpp)
  double seconds = 0;
};

// The first line of `nvcc --version` that names the release, e.g. "Cuda compilation tools, release 13.0, V13.0.88".
std::string nvcc_version(const std::string& nvcc);

// The nvcc arguments (without the nvcc path) for building glue -> output.
std::vector<std::string> nvcc_arguments(const std::string& arch, const std::filesystem::path& glue,
                                        const std::filesystem::path& output,
                                        const std::vector<std::string>& extra_flags);

// Throws Error when the source cannot be read or nvcc cannot be run; a failed compilation is ok == false.
BuildResult build_solution(const Challenge& challenge, const BuildRequest& request);

}  // namespace judge
