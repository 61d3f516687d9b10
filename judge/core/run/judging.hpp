#pragma once
// One judging run, from the judge's side: probe the GPU, build, start a worker, follow its messages under
// deadlines, and turn whatever happens to it (a verdict, a crash, a hang) into a JudgeReport. No CUDA here.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "judge/core/build/build.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/run/sanitizer.hpp"
#include "judge/core/measure/result.hpp"
#include "judge/core/run/run_progress.hpp"
#include "judge/core/sandbox/protections.hpp"
#include "judge/core/challenge/spec.hpp"
#include "judge/core/measure/statistics.hpp"

namespace judge {

enum class Mode { run, submit };

struct JudgeOptions {
  Mode mode = Mode::run;
  std::optional<std::uint64_t> seed;     // run: reproducible inputs; submit ignores it and mixes in a secret
  std::optional<double> timeout_s;       // per solve() call; default: the spec's
  std::vector<std::string> cases;        // run: only these (tests or benchmarks, by name); empty = all tests
  // Stress cases (beyond the statement's promises) decide the verdict like the graded ones. The score stays that of
  // the graded benchmarks, so strict runs rank with the rest.
  bool strict = false;
  int calls = 1;                         // run: each case makes calls 1..calls, checked (`--call N` replays call N)
  TimingPolicy timing;
  int device = 0;
  std::string arch;                      // empty: from the device (or sm_90 when there is none)
  bool time_reference = true;
  bool cupti = true;
  std::filesystem::path cache_dir;
  std::filesystem::path worker;          // judge-worker
  std::vector<std::string> nvcc_flags;
  // The GPU's measured ceilings (submit): speed-of-light per benchmark, and the floor below which a time is
  // rejected as physically impossible.
  std::optional<Calibration> calibration;
  // Run the functional cases under compute-sanitizer with this tool (run only).
  std::optional<SanitizerTool> sanitize;
  // Run the worker under another tool (`judge profile`: Nsight Compute), whose argv goes in front of the worker's;
  // every deadline is stretched by `slowdown`. Run mode only: the tool needs the CUDA tools interface, which the
  // worker leaves alone when it times nothing.
  struct Wrapper {
    std::vector<std::string> prefix;
    double slowdown = 1;
  };
  std::optional<Wrapper> wrapper;
  // A tool runs the judge itself (`ncu --target-processes all judge submit ...`, for the agreement proof of
  // docs/measurement.md, or nsys): the solver is started as for a wrapper, so that the tool can follow into it.
  bool under_tool = false;
  // submit: who holds the GPU's timing lock while the benchmarks run, as waiters see it ("judge submit by alice").
  std::string lock_holder;
  // Told what the run is waiting for (another judge timing on the GPU), as it happens. May be empty.
  std::function<void(const std::string&)> on_notice;
  // Told where the run is, a few times a second at most (a terminal's progress line). May be empty.
  std::function<void(const RunProgress&)> on_progress;
};

// The timed phase's hold on the GPU (one timer per GPU): how long it waited, for whom, and the window it held the
// GPU in, in CLOCK_MONOTONIC seconds (comparable between processes of one host).
struct GpuLockReport {
  bool waited = false;     // someone else held it on arrival (at any of the holds)
  double waited_s = 0;     // all the holds' waits together
  std::string waited_for;  // the first holder met on arrival, when there was one
  double start_s = 0;      // the first hold's start
  double end_s = 0;        // the last hold's end
  // Every hold, in order: one per worker that timed (the graded cases, then, once they passed, the stress cases in a
  // worker of their own). Another judge may time between two of them, so only these are the GPU's alone.
  std::vector<std::pair<double, double>> holds;
};

struct JudgeReport {
  std::string challenge;
  Mode mode = Mode::run;
  std::uint64_t seed = 0;
  std::optional<DeviceInfo> device;
  std::string timer;
  std::string timer_warning;  // why the timer is not CUPTI although CUPTI was allowed
  BuildResult build;
  std::vector<CaseResult> cases;  // graded cases first, then stress cases (CaseResult::stress)
  bool strict = false;            // stress cases decided the verdict too (--strict)
  Verdict verdict = Verdict::internal_error;
  std::string message;      // why, for anything but accepted
  std::string failed_case;  // the case the verdict belongs to, if any
  std::string output;       // what the submission printed (bounded)
  std::size_t output_dropped = 0;
  double score_ms = 0;      // submit: geometric mean of the benchmark medians
  double wall_s = 0;
  double worker_start_s = 0;  // from spawning the worker to its first message (process + CUDA context)
  std::optional<Calibration> calibration;
  std::optional<SanitizerTool> sanitizer_tool;
  std::optional<SanitizerReport> sanitizer;  // what compute-sanitizer found, when it ran
  std::string sanitizer_text;                // its findings with the user's source lines
  std::optional<GpuLockReport> gpu_lock;     // submit: the timed phase's hold on the GPU
  // What kept the submission from the judge's records and from other runs, as the worker and the solver applied it
  // (judge doctor explains each).
  std::vector<Protection> protections;
  bool accepted() const { return verdict == Verdict::accepted; }
  // Whether this case's verdict counts towards the run's: graded cases always, stress cases only when strict.
  bool decides(const CaseResult& c) const { return !c.stress || strict; }
};

struct ProbeResult {
  std::vector<DeviceInfo> devices;
  std::string error;  // why there are none, when the worker could say
};
// Asks judge-worker which GPUs there are (the judge itself never creates a CUDA context). Remembered for the
// process's life once GPUs were found (per worker, CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER);
// probe_devices_now() always asks.
ProbeResult probe_devices(const std::filesystem::path& worker);
ProbeResult probe_devices_now(const std::filesystem::path& worker);

// Fills each benchmark's speed-of-light from the calibration and rejects, as suspicious timing, a median below
// kSuspiciousFraction of the floor: faster than the GPU can move the bytes or do the arithmetic.
// compute_gflops: the challenge's compute roof (compute_roof_gflops); 0 means the FP32 FMA rate.
void apply_speed_of_light(std::vector<CaseResult>& cases, const Calibration& calibration, double compute_gflops = 0);

// Geometric mean of the medians of the graded benchmark cases (0 if any is missing); stress cases never count.
double score_of(const std::vector<CaseResult>& cases);

// A fresh secret seed (std::random_device), for submit and for run without --seed.
std::uint64_t random_seed();

// Throws Error naming the challenge's cases when it has none called `name` (tests and benchmarks both count).
void require_case(const Challenge& challenge, const std::string& name);

JudgeReport judge_submission(const Challenge& challenge, const std::filesystem::path& source,
                             const JudgeOptions& options);

nlohmann::json to_json(const JudgeReport& r);

}  // namespace judge
