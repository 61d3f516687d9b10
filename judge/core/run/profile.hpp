#pragma once
// `judge profile`: one checked call of one case with the worker under Nsight Compute, and per kernel that solve()
// launched the few figures that say what limits it. The run is an ordinary `judge run --case C` (built, checked,
// untimed, so CUPTI is left to ncu); only an accepted call is profiled. The .ncu-rep stays for Nsight Compute's GUI.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/challenge/spec.hpp"
#include "judge/core/run/judging.hpp"
#include "judge/core/run/ncu.hpp"

namespace judge {

struct ProfileOptions {
  std::string case_name;          // empty: default_profile_case()
  std::filesystem::path report;   // the .ncu-rep; empty: <challenge>-<case>.ncu-rep in the current directory
  int max_kernels = 20;
  JudgeOptions judge;             // device, arch, nvcc flags, timeout, cache and worker (its mode, cases, calls and
                                  // wrapper are set here)
};

struct ProfileReport {
  JudgeReport run;                // the checked call: build, device, verdict
  std::string case_name;
  std::string ncu;                // the ncu that ran
  std::filesystem::path report;   // the saved .ncu-rep; empty unless kernels were profiled
  std::vector<KernelProfile> kernels;
  int max_kernels = 0;            // kernels.size() == max_kernels: solve() may have launched more
};

// The case profiled when none is named: the first benchmark (a size that is timed), else the first test.
std::string default_profile_case(const Challenge& challenge);

// The .ncu-rep path: `requested` (".ncu-rep" appended when it has another extension, as ncu would), else
// <challenge>-<case>.ncu-rep in the current directory; absolute.
std::filesystem::path profile_report_path(const std::filesystem::path& requested, const std::string& challenge,
                                          const std::string& case_name);

// A rejected call gives a report with its verdict and no kernels (nothing is kept). Throws Error for what must be
// fixed around the submission: an unknown case (the cases are listed), ncu missing, no permission to read the GPU's
// counters, ncu failing, or no kernel launched inside solve().
ProfileReport profile_submission(const Challenge& challenge, const std::filesystem::path& source,
                                 const ProfileOptions& options);

nlohmann::json to_json(const ProfileReport& p);

}  // namespace judge
