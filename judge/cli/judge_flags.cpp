// The flags `judge run`, `judge submit` and `judge ladder` share, and the JudgeOptions they make: one definition,
// so the ladder times each rung exactly as `judge submit` would.
#include <unistd.h>

#include "judge/cli/cli.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/run/run_progress.hpp"

namespace judge::cli {

namespace {

// The GPU's ceilings for speed-of-light and the physical floor: measured the first time this GPU is seen.
std::optional<Calibration> calibration_for(const GlobalOptions& g, const JudgeOptions& jo) {
  ProbeResult probe = probe_devices(jo.worker);
  if (jo.device < 0 || jo.device >= static_cast<int>(probe.devices.size())) return std::nullopt;
  try {
    return ensure_calibration(jo.worker, probe.devices[jo.device], !g.json && ::isatty(STDERR_FILENO), std::cerr);
  } catch (const std::exception& e) {
    if (!g.json) std::cerr << "warning: no calibration, so no speed-of-light figures: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace

const char* const kArchHelp =
    "GPU architecture to compile for, e.g. sm_89 (default: each device's, with its architecture-specific features "
    "from 9.0 on: sm_90a)";

void add_build_flags(CLI::App* sub, BuildFlags& f) {
  sub->add_option("--timeout", f.timeout_s, "Seconds one solve() call may take (default: the challenge's)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--device", f.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
  sub->add_option("--arch", f.arch, kArchHelp);
  sub->add_option("--nvcc-flag", f.nvcc_flags, "Extra flag for nvcc (repeatable), e.g. --nvcc-flag=-maxrregcount=64");
  sub->add_flag("--no-cupti", f.no_cupti, "Time with CUDA events on the default stream instead of CUPTI records");
  sub->add_flag("--strict", f.strict,
                "Stress cases (beyond the statement's promises) decide the verdict too; the score stays the graded "
                "benchmarks'");
  sub->add_flag("--under-tool", f.under_tool,
                "A tool runs this judge (ncu or nsys with --target-processes all) and must follow it into the "
                "solver: the solver keeps the environment, the uid and an exec the tool can see, and is not stopped "
                "between calls (the report lists those protections as relaxed, and submit records nothing). Add "
                "--no-cupti under ncu");
}

void add_timing_flags(CLI::App* sub, TimingFlags& f) {
  sub->add_option("--budget", f.budget_s, "Seconds of timed calls per benchmark case, at most (default 3)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--min-samples", f.min_samples, "Timed calls per benchmark case, at least (default 10)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--noise", f.noise_pct, "Stop sampling once the relative noise is below this percentage "
                                          "(default 0.5)")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--no-reference-timing", f.no_reference_timing, "Skip timing the reference (no speedup column)");
  sub->add_option("--warmup", f.warmup_s, "Seconds of warm-up calls per benchmark case (default 0.1)")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--no-calibration", f.no_calibration,
                "Do not measure or use this GPU's ceilings (no speed-of-light, no physical-floor check)");
}

JudgeOptions judge_options(const BuildFlags& f) {
  JudgeOptions jo;
  if (f.timeout_s > 0) jo.timeout_s = f.timeout_s;
  jo.device = f.device;
  jo.arch = f.arch;
  jo.cupti = !f.no_cupti;
  jo.nvcc_flags = f.nvcc_flags;
  jo.strict = f.strict;
  jo.under_tool = f.under_tool;
  jo.cache_dir = cache_dir();
  jo.worker = worker_path();
  return jo;
}

void apply_timing_policy(const TimingFlags& f, JudgeOptions& jo) {
  jo.mode = Mode::submit;
  jo.time_reference = !f.no_reference_timing;
  if (f.budget_s > 0) jo.timing.budget_s = f.budget_s;
  if (f.min_samples > 0) jo.timing.min_samples = f.min_samples;
  if (f.noise_pct > 0) jo.timing.target_noise_pct = f.noise_pct;
  if (f.warmup_s > 0) jo.timing.warmup_s = f.warmup_s;
}

void add_timing(const GlobalOptions& g, const TimingFlags& f, JudgeOptions& jo) {
  apply_timing_policy(f, jo);
  if (!f.no_calibration) jo.calibration = calibration_for(g, jo);
}

void show_progress(const GlobalOptions& g, ProgressLine& line, JudgeOptions& jo, const std::string& prefix) {
  // One line that says where the run is, erased before the report; never under --json or when stdout is a file or
  // a pipe.
  if (!g.json && ::isatty(STDOUT_FILENO))
    jo.on_progress = [&line, prefix](const RunProgress& p) {
      line.update(prefix + progress_text(p), progress_fraction(p));
    };
  // Said on stderr, also under --json (stdout stays one JSON document): a judge that waits says why.
  jo.on_notice = [&line](const std::string& text) {
    line.finish();
    std::cerr << text << std::endl;
  };
}

}  // namespace judge::cli
