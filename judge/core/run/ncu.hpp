#pragma once
// Nsight Compute (ncu), from the judge's side: finding it, the command line that runs the worker under it, reading
// the metrics it exported, and telling its failures apart. The judge only builds command lines and reads text;
// nothing here touches CUDA.
//
// Which kernels: the worker pushes an NVTX range (domain kNvtxDomain, range kNvtxSolveRange) around each solve()
// call, and ncu profiles only kernels launched inside it (`--nvtx --nvtx-include judge@solve/`), so the judge's own
// generator, reference and check kernels are never profiled. NVTX push/pop ranges belong to a thread: kernels that
// solve() launches from threads of its own are not profiled.
//
// Reading: `ncu --import R --csv --page raw --print-units base` prints one header row (fixed columns "ID",
// "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size", "Grid Size",
// "Device", "CC", then one column per metric name), one row of units ("nsecond", "%", "register/thread", ...), and
// one row per profiled kernel. Every field is quoted; numbers may carry thousands separators ("1,048,576"); a metric
// the GPU or the ncu release lacks is absent or "n/a".
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace judge {

// The NVTX range the worker pushes around every solve() call.
inline constexpr const char* kNvtxDomain = "judge";
inline constexpr const char* kNvtxSolveRange = "solve";

// The ncu to use: $JUDGE_NCU (which must then be an executable file), else the first executable of
// ncu_candidates(). Throws Error saying how to install Nsight Compute or point the judge at it when there is none.
std::string find_ncu();
// Where ncu is looked for, in order: ncu on PATH, beside nvcc (the toolkit's bin/ and nsight-compute-*/),
// /usr/local/cuda/bin, /usr/local/cuda/nsight-compute-*/, /opt/nvidia/nsight-compute/*/ (the standalone installer).
std::vector<std::filesystem::path> ncu_candidates();
// The first executable candidate; throws the "not found" Error when there is none.
std::string find_ncu(const std::vector<std::filesystem::path>& candidates);

struct NcuProfileRequest {
  std::string ncu;
  std::filesystem::path report;    // the .ncu-rep to write (ncu appends ".ncu-rep" to any other name)
  std::filesystem::path log_file;  // ncu's own messages, away from what the submission prints
  int max_kernels = 20;            // profile at most this many of solve()'s kernels (each is replayed many times)
};

// The argv to put in front of the worker's: ncu with the NVTX filter, the sections whose metrics the judge reads
// (SpeedOfLight, Occupancy, LaunchStats, MemoryWorkloadAnalysis, WarpStateStats) and the export.
std::vector<std::string> ncu_profile_prefix(const NcuProfileRequest& request);
// The argv that prints a report's metrics as CSV, one row per kernel (see the top of this file).
std::vector<std::string> ncu_import_command(const std::string& ncu, const std::filesystem::path& report);
// Runs ncu_import_command; throws Error with ncu's output when it fails.
std::string import_ncu_report(const std::string& ncu, const std::filesystem::path& report);

struct StallReason {
  std::string reason;          // as in the metric name: "long_scoreboard", "barrier", ...
  double cycles = 0;           // cycles per issued instruction spent in this state (samples, for pc sampling)
  double share_pct = 0;        // of all warp states' cycles (or samples)
};

// Human text for a stall reason: "long scoreboard: waiting for global or local memory (L1TEX)".
std::string describe_stall(const std::string& reason);

// One kernel solve() launched, as ncu measured it. Absent: the report does not have the metric.
struct KernelProfile {
  int id = 0;
  std::string name;          // demangled, as ncu prints it
  std::string block_dims;    // "(256, 1, 1)"
  std::string grid_dims;     // "(97657, 1, 1)"
  std::optional<double> duration_ns;
  std::optional<double> dram_pct;               // DRAM throughput, % of peak
  std::optional<double> memory_pct;             // busiest memory unit (L1, L2, DRAM), % of peak
  std::optional<double> sm_pct;                 // compute (SM) throughput, % of peak
  std::optional<double> achieved_occupancy_pct;
  std::optional<double> theoretical_occupancy_pct;
  std::optional<double> l2_hit_pct;
  std::optional<double> registers_per_thread;
  std::optional<double> block_size;             // threads per block
  std::optional<double> grid_size;              // blocks
  std::optional<double> shared_static_bytes;    // per block
  std::optional<double> shared_dynamic_bytes;   // per block
  std::vector<StallReason> top_stalls;          // largest first, at most 3; "selected" (issuing) is not a stall
};

// The kernels of `ncu --import --csv --page raw` text. Lines that are not CSV rows of the table (ncu's "==PROF=="
// and "==WARNING==" chatter before it) are skipped. Throws Error when there is no table at all.
std::vector<KernelProfile> parse_ncu_raw_csv(const std::string& text);

// What limits the kernel, after Nsight Compute's own speed-of-light rule: "memory" or "compute" when the busier of
// the two reaches 60% of its peak, else "latency" (neither is busy: too few warps, or warps waiting). Empty when the
// throughputs are missing.
std::string limiter(const KernelProfile& k);

nlohmann::json to_json(const KernelProfile& k);

// What ncu said about itself in its log.
struct NcuLog {
  bool no_permission = false;  // ERR_NVGPUCTRPERM: not allowed to read the GPU's performance counters
  bool no_kernels = false;     // "No kernels were profiled"
  std::vector<std::string> errors;  // its "==ERROR==" lines, prefix removed
};
NcuLog read_ncu_log(const std::string& log);

// The Error message for ERR_NVGPUCTRPERM: run as root, or lift the driver's restriction (and where NVIDIA says how).
std::string ncu_permission_message();

}  // namespace judge
