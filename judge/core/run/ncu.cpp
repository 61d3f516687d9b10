#include "judge/core/run/ncu.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "judge/core/base/error.hpp"
#include "judge/core/build/build.hpp"
#include "judge/core/sandbox/process.hpp"

namespace judge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Nsight Compute's sections the judge reads its figures from; the GUI shows them in the saved report too.
constexpr std::array<const char*, 5> kSections = {"SpeedOfLight", "Occupancy", "LaunchStats", "MemoryWorkloadAnalysis",
                                                  "WarpStateStats"};
// Nsight Compute's own rule (SOLBottleneck) calls a unit busy from 60% of its peak.
constexpr double kBusyPct = 60;
constexpr std::size_t kTopStalls = 3;
constexpr auto kImportLimit = std::chrono::minutes(2);

// The raw page's metric names, the first one present wins: releases renamed a few.
const std::vector<std::string> kDuration = {"gpu__time_duration.sum"};
const std::vector<std::string> kDram = {"dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                        "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"};
const std::vector<std::string> kMemory = {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"};
const std::vector<std::string> kSm = {"sm__throughput.avg.pct_of_peak_sustained_elapsed"};
const std::vector<std::string> kAchieved = {"sm__warps_active.avg.pct_of_peak_sustained_active"};
const std::vector<std::string> kTheoretical = {"sm__maximum_warps_per_active_cycle_pct"};
const std::vector<std::string> kL2Hit = {"lts__t_sector_hit_rate.pct"};
const std::vector<std::string> kRegisters = {"launch__registers_per_thread"};
const std::vector<std::string> kBlockSize = {"launch__block_size"};
const std::vector<std::string> kGridSize = {"launch__grid_size"};
const std::vector<std::string> kSharedStatic = {"launch__shared_mem_per_block_static"};
const std::vector<std::string> kSharedDynamic = {"launch__shared_mem_per_block_dynamic"};

// Warp states, per issued instruction (WarpStateStats), else from PC sampling (SourceCounters).
constexpr std::string_view kStallPrefix = "smsp__average_warps_issue_stalled_";
constexpr std::string_view kStallSuffix = "_per_issue_active.ratio";
constexpr std::string_view kSampledStallPrefix = "smsp__pcsamp_warps_issue_stalled_";

bool executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// <dir>/nsight-compute-*/ncu, newest release (the highest name) first.
void add_nsight_dirs(const fs::path& dir, std::vector<fs::path>& out) {
  std::error_code ec;
  std::vector<fs::path> found;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (starts_with(it->path().filename().string(), "nsight-compute")) found.push_back(it->path() / "ncu");
  std::sort(found.rbegin(), found.rend());
  out.insert(out.end(), found.begin(), found.end());
}

// ---- CSV ----------------------------------------------------------------------------------------------------------

// RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  auto end_field = [&] {
    row.push_back(std::move(field));
    field.clear();
  };
  auto end_row = [&] {
    if (any || !field.empty() || !row.empty()) {
      end_field();
      rows.push_back(std::move(row));
    }
    row.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      any = true;
      end_field();
    } else if (c == '\n') {
      end_row();
    } else if (c != '\r') {
      field += c;
    }
  }
  end_row();
  return rows;
}

// "1,048,576" -> 1048576; "n/a", "" or anything else that is not a number -> nullopt.
std::optional<double> number(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

// A value in the base unit of its kind (nanoseconds, bytes), whatever --print-units gave.
double to_base(double v, const std::string& unit) {
  static const std::map<std::string, double> scale = {
      {"nsecond", 1},  {"usecond", 1e3}, {"msecond", 1e6}, {"second", 1e9}, {"byte", 1},
      {"Kbyte", 1e3}, {"Mbyte", 1e6},   {"Gbyte", 1e9},   {"KB", 1e3},    {"MB", 1e6}};
  auto it = scale.find(unit);
  return it == scale.end() ? v : v * it->second;
}

class Table {
 public:
  Table(std::vector<std::string> header, std::vector<std::string> units)
      : header_(std::move(header)), units_(std::move(units)) {
    for (std::size_t i = 0; i < header_.size(); ++i) column_.emplace(header_[i], i);
  }
  const std::vector<std::string>& header() const { return header_; }

  std::string text(const std::vector<std::string>& row, const std::string& name) const {
    auto it = column_.find(name);
    return it == column_.end() || it->second >= row.size() ? std::string() : row[it->second];
  }
  std::optional<double> value(const std::vector<std::string>& row, const std::vector<std::string>& names) const {
    for (const std::string& name : names) {
      auto it = column_.find(name);
      if (it == column_.end() || it->second >= row.size()) continue;
      if (auto v = number(row[it->second]))
        return to_base(*v, it->second < units_.size() ? units_[it->second] : std::string());
    }
    return std::nullopt;
  }

 private:
  std::vector<std::string> header_;
  std::vector<std::string> units_;
  std::map<std::string, std::size_t> column_;
};

// The warp states of one kernel, largest first, and the top stalls among them.
std::vector<StallReason> top_stalls(const Table& t, const std::vector<std::string>& row) {
  auto collect = [&](std::string_view prefix, std::string_view suffix) {
    std::vector<StallReason> all;
    for (const std::string& name : t.header()) {
      if (!starts_with(name, prefix) || !ends_with(name, suffix)) continue;
      std::string reason = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
      if (reason.empty() || ends_with(reason, "_not_issued")) continue;  // a subset of the same state
      if (auto v = t.value(row, {name})) all.push_back({reason, *v, 0});
    }
    return all;
  };
  std::vector<StallReason> states = collect(kStallPrefix, kStallSuffix);
  if (states.empty()) states = collect(kSampledStallPrefix, "");
  double total = 0;
  for (const auto& s : states) total += s.cycles;
  std::vector<StallReason> stalls;
  for (auto& s : states) {
    if (s.reason == "selected" || s.cycles <= 0) continue;  // "selected" is the warp issuing: no stall
    s.share_pct = total > 0 ? 100 * s.cycles / total : 0;
    stalls.push_back(s);
  }
  std::stable_sort(stalls.begin(), stalls.end(),
                   [](const StallReason& a, const StallReason& b) { return a.cycles > b.cycles; });
  if (stalls.size() > kTopStalls) stalls.resize(kTopStalls);
  return stalls;
}

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

// ---- Finding ncu ----------------------------------------------------------------------------------------------------

std::vector<fs::path> ncu_candidates() {
  std::vector<fs::path> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty()) candidates.push_back(fs::path(dir) / "ncu");
  }
  try {
    fs::path bin = fs::path(find_nvcc()).parent_path();
    candidates.push_back(bin / "ncu");
    add_nsight_dirs(bin.parent_path(), candidates);
  } catch (const Error&) {
    // no nvcc: the fixed locations below may still have it
  }
  candidates.emplace_back("/usr/local/cuda/bin/ncu");
  add_nsight_dirs("/usr/local/cuda", candidates);
  std::error_code ec;
  for (fs::directory_iterator it("/opt/nvidia/nsight-compute", ec), end; !ec && it != end; it.increment(ec))
    candidates.push_back(it->path() / "ncu");
  return candidates;
}

std::string find_ncu(const std::vector<fs::path>& candidates) {
  for (const fs::path& c : candidates)
    if (executable_file(c)) return c.string();
  throw Error(
      "cannot find Nsight Compute's `ncu`, which `judge profile` runs your code under: install NVIDIA Nsight Compute "
      "(it comes with the CUDA Toolkit; from NVIDIA's package repository `apt-get install cuda-nsight-compute-<major>-"
      "<minor>`, or the installer from https://developer.nvidia.com/nsight-compute), then put ncu on PATH or set "
      "JUDGE_NCU to its path");
}

std::string find_ncu() {
  if (const char* e = std::getenv("JUDGE_NCU"); e && *e) {
    if (executable_file(e)) return e;
    JUDGE_THROW(Error,
                "JUDGE_NCU is set to {}, which is not an executable file: point it at Nsight Compute's ncu, or unset "
                "it to let the judge look on PATH and beside nvcc",
                e);
  }
  return find_ncu(ncu_candidates());
}

// ---- Command lines --------------------------------------------------------------------------------------------------

std::vector<std::string> ncu_profile_prefix(const NcuProfileRequest& r) {
  std::vector<std::string> argv = {
      r.ncu,
      // The worker is started by ncu itself; "all" also follows it should a launcher ever sit in between.
      "--target-processes", "all",
      // Only kernels inside the worker's push/pop range around solve() (the trailing '/' names a push/pop range).
      "--nvtx", "--nvtx-include", fmt::format("{}@{}/", kNvtxDomain, kNvtxSolveRange),
      // Counted over the kernels that pass the filter: a solve() of thousands of launches stays bounded.
      "--launch-count", std::to_string(r.max_kernels)};
  for (const char* section : kSections) argv.insert(argv.end(), {"--section", section});
  argv.insert(argv.end(), {"--export", r.report.string(), "--force-overwrite", "--log-file", r.log_file.string()});
  return argv;
}

std::vector<std::string> ncu_import_command(const std::string& ncu, const fs::path& report) {
  // Base units (nanoseconds, bytes), whatever size the values are: the parser converts the others anyway.
  return {ncu, "--import", report.string(), "--csv", "--page", "raw", "--print-units", "base"};
}

std::string import_ncu_report(const std::string& ncu, const fs::path& report) {
  SpawnOptions spawn;
  spawn.argv = ncu_import_command(ncu, report);
  spawn.env = {{"LC_ALL", "C"}};  // numbers with '.' decimals, whatever the user's locale
  spawn.output_limit = 64u << 20;
  Captured c = run_captured(spawn, kImportLimit);
  if (c.timed_out || !c.status.ok())
    JUDGE_THROW(Error, "`{} --import {} --csv --page raw` failed ({}): {}", ncu, report.string(),
                c.timed_out ? "it did not finish within 2 minutes" : c.status.describe(), c.output);
  return c.output;
}

// ---- Reading the metrics --------------------------------------------------------------------------------------------

std::vector<KernelProfile> parse_ncu_raw_csv(const std::string& text) {
  // ncu may print messages before the table; the table starts at its header row.
  std::size_t at = std::string::npos;
  for (std::size_t pos = 0; pos < text.size();) {
    if (text.compare(pos, 5, "\"ID\",") == 0 || text.compare(pos, 3, "ID,") == 0) {
      at = pos;
      break;
    }
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  if (at == std::string::npos)
    JUDGE_THROW(Error, "Nsight Compute printed no metrics table (no \"ID\" header row): {}", text.substr(0, 2000));
  std::vector<std::vector<std::string>> rows = parse_csv(text.substr(at));
  std::vector<std::string> units;
  std::size_t first = 1;
  if (rows.size() > 1 && !rows[1].empty() && rows[1][0].empty()) {  // the units row has no ID
    units = rows[1];
    first = 2;
  }
  Table t(rows[0], units);
  std::vector<KernelProfile> kernels;
  for (std::size_t i = first; i < rows.size(); ++i) {
    const auto& row = rows[i];
    auto id = number(t.text(row, "ID"));
    if (!id) continue;  // not a kernel's row
    KernelProfile k;
    k.id = static_cast<int>(*id);
    k.name = t.text(row, "Kernel Name");
    k.block_dims = t.text(row, "Block Size");
    k.grid_dims = t.text(row, "Grid Size");
    k.duration_ns = t.value(row, kDuration);
    k.dram_pct = t.value(row, kDram);
    k.memory_pct = t.value(row, kMemory);
    k.sm_pct = t.value(row, kSm);
    k.achieved_occupancy_pct = t.value(row, kAchieved);
    k.theoretical_occupancy_pct = t.value(row, kTheoretical);
    k.l2_hit_pct = t.value(row, kL2Hit);
    k.registers_per_thread = t.value(row, kRegisters);
    k.block_size = t.value(row, kBlockSize);
    k.grid_size = t.value(row, kGridSize);
    k.shared_static_bytes = t.value(row, kSharedStatic);
    k.shared_dynamic_bytes = t.value(row, kSharedDynamic);
    k.top_stalls = top_stalls(t, row);
    kernels.push_back(std::move(k));
  }
  return kernels;
}

std::string limiter(const KernelProfile& k) {
  std::optional<double> memory = k.memory_pct ? k.memory_pct : k.dram_pct;
  if (!memory || !k.sm_pct) return {};
  if (std::max(*memory, *k.sm_pct) < kBusyPct) return "latency";
  return *memory >= *k.sm_pct ? "memory" : "compute";
}

std::string describe_stall(const std::string& reason) {
  static const std::map<std::string, std::string> why = {
      {"long_scoreboard", "waiting for global or local memory (L1TEX)"},
      {"short_scoreboard", "waiting for shared memory or a special-function result (MIO)"},
      {"barrier", "waiting at __syncthreads() for the rest of the block"},
      {"membar", "waiting at a memory fence"},
      {"mio_throttle", "the shared-memory / special-function queue is full"},
      {"lg_throttle", "the global/local memory instruction queue is full"},
      {"tex_throttle", "the texture unit's queue is full"},
      {"math_pipe_throttle", "the arithmetic pipe is busy: compute-bound"},
      {"wait", "a fixed-latency dependency between instructions"},
      {"not_selected", "ready, but another warp was picked: enough warps"},
      {"no_instruction", "waiting for instructions (instruction cache miss or after a branch)"},
      {"imc_miss", "waiting for the constant cache"},
      {"branch_resolving", "waiting for a branch to resolve"},
      {"dispatch_stall", "the dispatcher held the warp back"},
      {"drain", "waiting for memory stores to drain at exit"},
      {"sleeping", "sleeping (__nanosleep) or yielded"},
      {"misc", "other reasons"},
  };
  std::string name = reason;
  std::replace(name.begin(), name.end(), '_', ' ');
  auto it = why.find(reason);
  return it == why.end() ? name : name + ": " + it->second;
}

json to_json(const KernelProfile& k) {
  json stalls = json::array();
  for (const auto& s : k.top_stalls)
    stalls.push_back({{"reason", s.reason}, {"cycles_per_instruction", s.cycles}, {"share_pct", s.share_pct}});
  std::string limit = limiter(k);
  return {{"id", k.id},
          {"name", k.name},
          {"block_dims", k.block_dims},
          {"grid_dims", k.grid_dims},
          {"duration_ns", optional_json(k.duration_ns)},
          {"dram_throughput_pct", optional_json(k.dram_pct)},
          {"memory_throughput_pct", optional_json(k.memory_pct)},
          {"sm_throughput_pct", optional_json(k.sm_pct)},
          {"achieved_occupancy_pct", optional_json(k.achieved_occupancy_pct)},
          {"theoretical_occupancy_pct", optional_json(k.theoretical_occupancy_pct)},
          {"l2_hit_rate_pct", optional_json(k.l2_hit_pct)},
          {"registers_per_thread", optional_json(k.registers_per_thread)},
          {"block_size", optional_json(k.block_size)},
          {"grid_size", optional_json(k.grid_size)},
          {"shared_memory_static_bytes", optional_json(k.shared_static_bytes)},
          {"shared_memory_dynamic_bytes", optional_json(k.shared_dynamic_bytes)},
          {"top_stalls", stalls},
          {"limiter", limit.empty() ? json(nullptr) : json(limit)}};
}

// ---- ncu's own messages ---------------------------------------------------------------------------------------------

NcuLog read_ncu_log(const std::string& log) {
  NcuLog r;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find("ERR_NVGPUCTRPERM") != std::string::npos) r.no_permission = true;
    if (line.find("No kernels were profiled") != std::string::npos) r.no_kernels = true;
    if (std::size_t at = line.find("==ERROR=="); at != std::string::npos) {
      std::string text = line.substr(at + 9);
      text.erase(0, text.find_first_not_of(' '));
      r.errors.push_back(text);
    }
  }
  return r;
}

std::string ncu_permission_message() {
  return "Nsight Compute may not read this GPU's performance counters (ERR_NVGPUCTRPERM): the NVIDIA driver allows "
         "only administrators by default. Run `judge profile` as root (e.g. `sudo -E judge profile ...`), or allow "
         "every user: add `options nvidia NVreg_RestrictProfilingToAdminUsers=0` to a file in /etc/modprobe.d/, then "
         "reload the nvidia kernel module or reboot. In a container, start it with --cap-add=SYS_ADMIN. NVIDIA's "
         "instructions: https://developer.nvidia.com/ERR_NVGPUCTRPERM";
}

}  // namespace judge
