#pragma once
// What a run produces, as the worker reports it and the judge reports and records it. Each message the worker sends
// is one JSON object per line ("event": device | timer | stage | case_begin | call | case_end | fatal | done); these types are
// their payloads, with to_json/from_json so the two processes agree on one definition.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/measure/occupancy.hpp"

namespace judge {

enum class Verdict {
  accepted,
  wrong_answer,
  compile_error,
  runtime_error,       // a CUDA error raised by the submission (name + where it surfaced)
  timeout,             // a solve() call outlived the case's limit; the worker was killed
  crashed,             // the worker died (signal, abort, exit inside solve)
  memory_violation,    // a write outside an output buffer (guard region changed)
  input_modified,      // an input buffer changed during solve()
  output_not_written,  // an output still holds the poison pattern
  suspicious_timing,   // faster than the GPU's physical limit allows
  no_device,           // no CUDA device: nothing could run
  internal_error,      // the judge's own fault: please report
  not_run,             // an earlier case ended the run
};
std::string_view to_string(Verdict v);
std::optional<Verdict> parse_verdict(std::string_view s);
// A short human label: "Accepted", "Wrong answer", ...
std::string_view label(Verdict v);

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string compute_capability;  // "9.0"
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t memory_bytes = 0;
  int clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;
  int driver_version = 0;
  int runtime_version = 0;
  std::string uuid;  // "GPU-8f1c...": the physical GPU, whatever CUDA_VISIBLE_DEVICES numbers it (empty if unknown)
  SmLimits sm;       // one SM's resources, for theoretical occupancy (unknown in results of older judges)
  std::string arch() const;  // "sm_90"
  // What submissions are compiled for: arch() with its architecture-specific features ("sm_90a": wgmma, setmaxnreg,
  // TMA multicast) from compute capability 9.0 on. Such code runs only on this exact compute capability, which is
  // the GPU the build is for.
  std::string build_arch() const;
  // What names this GPU across processes: the UUID, else "device<ordinal>".
  std::string key() const;
};

struct Mismatch {
  std::int64_t index = 0;
  std::vector<std::int64_t> coords;  // row, col for matrices (one entry per shape dimension)
  double got = 0;
  double expected = 0;
};

// How one output compared with the reference.
struct OutputCheck {
  std::string name;
  std::int64_t count = 0;
  std::int64_t mismatches = 0;
  std::int64_t unwritten = 0;   // elements still holding the poison pattern
  std::int64_t non_finite = 0;  // NaN/Inf where the reference is finite
  // Of the mismatches, NaNs that carry the poison's payload: arithmetic on an element before it was written.
  std::int64_t poison_derived = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  double norm_error = -1;       // ||out - ref|| / ||ref|| when the tolerance is a norm bound; -1 otherwise
  std::vector<Mismatch> first;  // the first few mismatches, in index order
  std::string message;          // a named checker's own diagnosis (sorted_permutation, topk); empty otherwise
};

struct Timing {
  std::string timer;          // "cupti" (all streams, kernels serialized), "cupti-concurrent" or "events" (timer.hpp)
  int samples = 0;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double mean_ms = 0;
  double noise_pct = 0;       // relative standard deviation of the samples, percent
  double host_median_ms = 0;  // wall time of the solve() call on the host, sync included
  bool converged = false;     // noise reached the target before the budget ran out
  double clock_mhz = 0;       // median SM clock measured right after the timed calls
  double max_clock_mhz = 0;   // the device's boost clock
  int throttled = 0;          // samples discarded because the clock was below 75% of the boost clock
  // The trusted bound (submit; the solver process times its calls, the worker checks the figure with its own clock,
  // see judge/core/measure/trusted_timing.hpp). Zero in results of older judges and for the reference, which the worker
  // times itself.
  double gpu_median_ms = 0;      // the GPU span CUPTI recorded inside the solver process: a claim
  double trusted_median_ms = 0;  // the call as the worker measured it: command sent to its probe kernel's start
  double overhead_ms = 0;        // the same for a call that launches one empty kernel, before the submission loaded
  std::string charged;           // "gpu": median_ms is the GPU span; "trusted": the GPU span left work out, so
                                 // median_ms is the trusted time less the overhead
};

// One kernel configuration that solve() launched during a case's timed calls, as CUPTI recorded it: a kernel
// launched with two block sizes is two of these.
struct KernelLaunch {
  std::string name;  // as compiled: mangled for C++ kernels (demangle_kernel_name makes it readable)
  std::array<int, 3> grid{};
  std::array<int, 3> block{};
  int registers = 0;                // per thread
  std::int64_t static_smem = 0;     // per block, bytes
  std::int64_t dynamic_smem = 0;    // per block, bytes
  std::int64_t local_bytes = 0;     // local memory per thread: stack and spills
  double launches_per_call = 0;     // over the timed calls (warm-up included)
  double gpu_ms_per_call = 0;       // sum of its kernels' durations per call
  int block_threads() const { return block[0] * block[1] * block[2]; }
};

struct CaseResult {
  std::string name;
  std::string kind;  // "test" or "benchmark"
  Verdict verdict = Verdict::not_run;
  std::string message;  // one sentence: why, for anything but accepted
  // The solve() call of this case that failed, 1-based, as `judge run --call N` replays it; 0 when no call failed
  // (accepted, or the case failed before or between calls).
  int failed_call = 0;
  // A case beyond the statement's promises (Case::stress), set by the judge from the spec, never by the worker: its
  // verdict is its own and decides nothing unless the run is strict. `beyond` names the promise it goes past.
  bool stress = false;
  std::string beyond;
  nlohmann::json scalars = nlohmann::json::object();
  std::vector<OutputCheck> outputs;
  std::string inputs_preview;  // tiny cases: the inputs, printed
  std::optional<Timing> timing;
  std::optional<Timing> reference_timing;
  std::vector<KernelLaunch> kernels;  // benchmarks: what solve() launched while timed (CUPTI timer only)
  double flops = 0;
  double bytes = 0;
  // Where the worker's time went for this case, milliseconds: generate, reference, check, timing (whole loop),
  // calls (solve() calls made), and bytes generated/checked for bandwidth figures.
  nlohmann::json profile = nlohmann::json::object();
  // Filled by the judge from the GPU's calibration (benchmarks only).
  double sol_percent = 0;     // speed-of-light floor / median, percent
  double sol_floor_ms = 0;
  std::string sol_bound;      // "memory" or "compute"
  double gflops() const;
  double gbps() const;
  double speedup() const;  // reference median / submission median (0 when unknown)
};

void to_json(nlohmann::json& j, const DeviceInfo& d);
void from_json(const nlohmann::json& j, DeviceInfo& d);
void to_json(nlohmann::json& j, const Mismatch& m);
void from_json(const nlohmann::json& j, Mismatch& m);
void to_json(nlohmann::json& j, const OutputCheck& o);
void from_json(const nlohmann::json& j, OutputCheck& o);
void to_json(nlohmann::json& j, const Timing& t);
void from_json(const nlohmann::json& j, Timing& t);
void to_json(nlohmann::json& j, const SmLimits& s);
void from_json(const nlohmann::json& j, SmLimits& s);
void to_json(nlohmann::json& j, const KernelLaunch& k);
void from_json(const nlohmann::json& j, KernelLaunch& k);
void to_json(nlohmann::json& j, const CaseResult& c);
void from_json(const nlohmann::json& j, CaseResult& c);
void to_json(nlohmann::json& j, Verdict v);
void from_json(const nlohmann::json& j, Verdict& v);

}  // namespace judge
