#pragma once
// `judge ladder`: the rungs of an optimisation ladder, each judged as `judge submit` judges it (all tests, then the
// timed benchmarks; never recorded), side by side. Per benchmark case and accepted rung: the median, the rate the
// challenge is bound by (GFLOP/s or GB/s), the share of the speed of light, and the speedup over the previous
// accepted rung, the first accepted rung and the reference. Made from the JudgeReports alone, so it is tested
// without a GPU; the console and JSON reporters print it and ladder_chart draws it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/challenge/spec.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/measure/kernel_resources.hpp"
#include "judge/core/run/judging.hpp"
#include "judge/core/run/ladder_rungs.hpp"

namespace judge {

// What limits the challenge, and so which rate the ladder compares: arithmetic (GFLOP/s) or bytes moved (GB/s).
enum class Bound { compute, memory };
std::string_view to_string(Bound b);  // "compute", "memory"
std::string_view rate_unit(Bound b);  // "GFLOP/s", "GB/s"

// One accepted rung on one benchmark case. A figure that is unknown is 0 (null in JSON).
struct LadderCell {
  std::string case_name;
  double median_ms = 0;
  double rate = 0;          // in the ladder's unit
  double sol_percent = 0;   // speed-of-light floor / median (calibrated GPUs only)
  double reference_ms = 0;  // the reference's median, timed the same way
  double vs_previous = 0;   // the previous accepted rung's median / this median
  double vs_first = 0;      // the first accepted rung's median / this median
  double vs_reference = 0;  // reference median / this median
};

struct LadderRow {
  Rung rung;
  Verdict verdict = Verdict::internal_error;
  std::string message;      // why, for anything but accepted
  std::string failed_case;
  std::string diagnostics;  // the compiler's output, when the rung does not compile
  double score_ms = 0;      // geometric mean of the benchmark medians (accepted rungs)
  std::string previous;     // the rung vs_previous compares with: the nearest earlier accepted one
  std::vector<LadderCell> cells;  // one per benchmark case, in the spec's order; empty unless accepted
  std::vector<KernelResources> kernels;  // what the rung launched while timed, most GPU time first (accepted rungs)
  bool accepted() const { return verdict == Verdict::accepted; }
};

// The horizontal line of the chart, in the ladder's unit: the copy bandwidth for a memory-bound challenge; for a
// compute-bound one, cuBLAS's GEMM rate for the inputs' precision (FP32, FP16, BF16, INT8).
struct Ceiling {
  std::string name;  // "cuBLAS FP32 GEMM", "copy bandwidth"
  double rate = 0;
};

struct Ladder {
  std::string challenge;
  std::string gpu_name;  // empty when no rung reached a GPU
  Bound bound = Bound::compute;
  std::optional<Ceiling> ceiling;  // absent without a calibration
  std::vector<std::string> cases;  // the benchmark cases, in the spec's order
  // Those of them beyond the statement's promises (Case::stress): shown marked, apart from what ranks.
  std::vector<std::string> stress_cases;
  // A case's name as tables head it: "N_268435456 (stress)" for a stress case.
  std::string case_label(const std::string& name) const;
  std::string first;               // the rung vs_first compares with: the first accepted one; empty if none
  std::vector<LadderRow> rows;     // in rung order
  std::size_t accepted() const;
  // A rung that found no CUDA device, if any: then nothing was timed, only compiled.
  const LadderRow* no_device() const;
};

// The bound: by the speed-of-light of most benchmark cases when the reports carry one (a calibrated GPU), else
// compute when the challenge counts flops, else memory.
Bound ladder_bound(const Challenge& challenge, const std::vector<JudgeReport>& reports);

// The ceiling for `bound` from a GPU's calibration; none when the calibration lacks that figure.
std::optional<Ceiling> ladder_ceiling(const Challenge& challenge, Bound bound, const Calibration& calibration);

// The ladder from each rung's report (reports[i] judged rungs[i]).
Ladder make_ladder(const Challenge& challenge, const std::vector<Rung>& rungs, const std::vector<JudgeReport>& reports);

nlohmann::json to_json(const Ladder& ladder);
// A ladder stored by `judge ladder --json` (bench/ladder-runs/): `source` names the file in errors, which say
// which field is missing or of the wrong type.
Ladder ladder_from_json(const nlohmann::json& j, const std::string& source);

}  // namespace judge
