#include "judge/core/measure/calibration.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include "judge/core/base/leaderboard_location.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/measure/gpu_lock.hpp"
#include "judge/core/sandbox/process.hpp"

namespace judge {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

// The worker reports before each step; the slowest step (FP32 GEMMs on a small GPU, or a GPU busy with other
// work) takes well under this.
constexpr double kMessageLimitS = 300;
constexpr std::size_t kOutputTail = 2000;

bool positive_finite(double x) { return std::isfinite(x) && x > 0; }

constexpr const char* kCorruptHint = "delete it (`judge calibrate` measures again) or fix it";

// The whole store: an object keyed by GPU name, each entry a calibration. A missing file is an empty store.
json read_store(const fs::path& file) {
  std::error_code ec;
  auto status = fs::status(file, ec);
  if (status.type() == fs::file_type::not_found) return json::object();
  if (ec || status.type() != fs::file_type::regular)
    JUDGE_THROW(Error, "the calibration file {} is not a readable file: {}", file.string(), kCorruptHint);
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in)
    JUDGE_THROW(Error, "cannot read the calibration file {} ({}): fix its permissions or {}", file.string(),
                std::strerror(errno), kCorruptHint);
  json all = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (all.is_discarded() || !all.is_object())
    JUDGE_THROW(Error, "the calibration file {} is corrupt (not a JSON object keyed by GPU name): {}", file.string(),
                kCorruptHint);
  for (const auto& [name, entry] : all.items()) {
    try {
      entry.get<Calibration>();
    } catch (const std::exception& e) {
      JUDGE_THROW(Error, "the calibration file {} is corrupt: the entry for '{}' is not a calibration ({}): {}",
                  file.string(), name, e.what(), kCorruptHint);
    }
  }
  return all;
}

// Writes text to a temporary file beside `file` and renames it over `file`: readers see the old content or the new,
// never a part.
void write_atomically(const fs::path& file, const std::string& text) {
  fs::path dir = file.parent_path();
  auto fail = [&](const std::string& what) {
    JUDGE_THROW(Error, "cannot write the calibration file {}: {}; is {} writable?", file.string(), what,
                dir.empty() ? std::string(".") : dir.string());
  };
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) fail(fmt::format("cannot create {} ({})", dir.string(), ec.message()));
  }
  std::random_device rd;
  fs::path tmp = dir / fmt::format(".{}.tmp-{}-{:08x}", file.filename().string(), ::getpid(), rd());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(std::strerror(errno));
  const char* p = text.data();
  std::size_t left = text.size();
  int error = 0;
  while (left > 0 && error == 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : EIO;
      break;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(tmp.c_str(), file.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(tmp.c_str());
    fail(std::strerror(error));
  }
}

std::string output_tail(const ChildProcess& child) {
  const std::string& out = child.output();
  if (out.empty()) return "";
  std::string tail = out.size() > kOutputTail ? "..." + out.substr(out.size() - kOutputTail) : out;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  return "; its output ends with:\n" + tail;
}

std::string figures(const Calibration& c) {
  return fmt::format("copy {:g} GB/s, FP32 FMA {:g} GFLOP/s, SGEMM {:g}, TF32 {:g}, FP16 {:g}, BF16 {:g} GFLOP/s, "
                     "INT8 {:g} GOP/s",
                     c.copy_gbps, c.fp32_fma_gflops, c.sgemm_gflops, c.tf32_gflops, c.fp16_gflops, c.bf16_gflops,
                     c.int8_gops);
}

}  // namespace

bool Calibration::plausible() const {
  return positive_finite(copy_gbps) && positive_finite(fp32_fma_gflops) && positive_finite(sgemm_gflops) &&
         positive_finite(tf32_gflops) && positive_finite(fp16_gflops) && positive_finite(bf16_gflops) &&
         positive_finite(int8_gops);
}

void to_json(json& j, const Calibration& c) {
  j = {{"gpu_name", c.gpu_name},
       {"compute_capability", c.compute_capability},
       {"sm_count", c.sm_count},
       {"measured_at", c.measured_at},
       {"judge_version", c.judge_version},
       {"copy_gbps", c.copy_gbps},
       {"fp32_fma_gflops", c.fp32_fma_gflops},
       {"sgemm_gflops", c.sgemm_gflops},
       {"tf32_gflops", c.tf32_gflops},
       {"fp16_gflops", c.fp16_gflops},
       {"bf16_gflops", c.bf16_gflops},
       {"int8_gops", c.int8_gops}};
}

// The figures are required (a calibration without them is no calibration); what describes them is optional.
void from_json(const json& j, Calibration& c) {
  c.gpu_name = j.at("gpu_name").get<std::string>();
  c.compute_capability = j.value("compute_capability", "");
  c.sm_count = j.value("sm_count", 0);
  c.measured_at = j.value("measured_at", "");
  c.judge_version = j.value("judge_version", "");
  c.copy_gbps = j.at("copy_gbps").get<double>();
  c.fp32_fma_gflops = j.at("fp32_fma_gflops").get<double>();
  c.sgemm_gflops = j.at("sgemm_gflops").get<double>();
  c.tf32_gflops = j.at("tf32_gflops").get<double>();
  c.fp16_gflops = j.at("fp16_gflops").get<double>();
  c.bf16_gflops = j.at("bf16_gflops").get<double>();
  // Added after the first calibrations were stored: one without it is read, but is not plausible() and is measured
  // again when next needed.
  c.int8_gops = j.value("int8_gops", 0.0);
}

CalibrationStore::CalibrationStore(fs::path file) : file_(std::move(file)) {}

fs::path CalibrationStore::default_path() {
  if (const char* p = std::getenv("JUDGE_CALIBRATION"); p && *p) return p;
  return leaderboard_local_dir(default_database_path().string()) / "calibration.json";
}

std::optional<Calibration> CalibrationStore::find(const std::string& gpu_name) const {
  json all = read_store(file_);
  auto it = all.find(gpu_name);
  if (it == all.end()) return std::nullopt;
  return it->get<Calibration>();
}

void CalibrationStore::save(const Calibration& c) {
  if (c.gpu_name.empty())
    JUDGE_THROW(Error, "cannot store a calibration without a GPU name in {}", file_.string());
  json all = read_store(file_);
  all[c.gpu_name] = c;
  write_atomically(file_, all.dump(2) + "\n");
}

Calibration run_calibration(const fs::path& worker, int device,
                            const std::function<void(const std::string&, double)>& progress) {
  return run_calibration(worker, device, progress, kMessageLimitS);
}

Calibration run_calibration(const fs::path& worker, int device,
                            const std::function<void(const std::string&, double)>& progress,
                            double message_limit_s) {
  SpawnOptions spawn;
  spawn.argv = {worker.string(), "calibrate", "--device", std::to_string(device), "--message-fd", "3"};
  ChildProcess child = ChildProcess::spawn(spawn);
  const auto limit = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(message_limit_s));
  std::optional<Calibration> result;
  std::string fatal;
  std::string step = "starting";
  bool hung = false;
  std::string line;
  for (;;) {
    auto next = child.next_message(line, Clock::now() + limit);
    if (next == ChildProcess::Next::closed) break;
    if (next == ChildProcess::Next::timeout) {
      hung = true;
      child.kill_group();
      break;
    }
    json m = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (m.is_discarded() || !m.is_object()) continue;  // not ours: ignored, as in a judging run
    std::string event = m.value("event", "");
    try {
      if (event == "progress") {
        step = m.value("step", step);
        if (progress) progress(step, m.value("fraction", 0.0));
      } else if (event == "calibration") {
        result = m.at("calibration").get<Calibration>();
      } else if (event == "fatal") {
        fatal = m.value("message", "unknown error");
      } else if (event == "done") {
        break;
      }
    } catch (const json::exception&) {
      continue;  // a malformed message proves nothing; a missing calibration is reported below
    }
  }
  ExitStatus status = child.wait(Clock::now() + std::chrono::seconds(10));
  std::string what = fmt::format("{} calibrate --device {}", worker.string(), device);
  if (hung)
    JUDGE_THROW(Error, "{} sent nothing for {:g} s during '{}' and was killed{}", what, message_limit_s, step,
                output_tail(child));
  if (!fatal.empty()) JUDGE_THROW(Error, "calibration failed: {}", fatal);
  if (!result)
    JUDGE_THROW(Error, "{} ended ({}) during '{}' without reporting a calibration{}", what, status.describe(), step,
                output_tail(child));
  if (!result->plausible())
    JUDGE_THROW(Error, "{} measured implausible figures ({}): every figure must be positive; is the GPU busy or "
                       "faulty?",
                what, figures(*result));
  return *result;
}

Calibration measure_with_progress(const fs::path& worker, const DeviceInfo& device, bool show_progress,
                                  std::ostream& progress_out) {
  ProgressLine line(progress_out);
  std::function<void(const std::string&, double)> progress;
  if (show_progress) progress = [&line](const std::string& step, double fraction) { line.update(step, fraction); };
  // One timer per GPU: measuring the ceilings is timing too, so it waits for whoever times on this GPU.
  std::optional<GpuLock> lock = GpuLock::acquire(
      GpuLock::file_for(cache_dir(), device.key()), fmt::format("judge calibrate (pid {})", ::getpid()),
      [&](const std::string& holder) {
        progress_out << fmt::format("waiting for GPU {}: {}\n", device.ordinal,
                                    holder.empty() ? "another judge is timing on it" : holder)
                     << std::flush;
      });
  Calibration c = run_calibration(worker, device.ordinal, progress);
  line.finish();
  if (c.gpu_name.empty()) c.gpu_name = device.name;
  return c;
}

Calibration ensure_calibration(const fs::path& worker, const DeviceInfo& device, bool show_progress,
                               std::ostream& progress_out) {
  CalibrationStore store(CalibrationStore::default_path());
  if (auto stored = store.find(device.name); stored && stored->plausible()) return *stored;
  if (show_progress)
    progress_out << fmt::format("calibrating {}: the first run on this GPU measures its ceilings once "
                                "(`judge calibrate` shows them)\n",
                                device.name);
  Calibration c = measure_with_progress(worker, device, show_progress, progress_out);
  try {
    store.save(c);
  } catch (const std::exception& e) {
    if (show_progress) progress_out << "warning: the calibration is used but was not stored: " << e.what() << "\n";
  }
  return c;
}

double compute_roof_gflops(const Calibration& c, const std::vector<DType>& input_dtypes) {
  auto has = [&](DType t) { return std::find(input_dtypes.begin(), input_dtypes.end(), t) != input_dtypes.end(); };
  if ((has(DType::int8) || has(DType::uint8)) && c.int8_gops > 0) return c.int8_gops;
  if (has(DType::float16) && c.fp16_gflops > 0) return c.fp16_gflops;
  if (has(DType::bfloat16) && c.bf16_gflops > 0) return c.bf16_gflops;
  return c.fp32_fma_gflops;
}

SpeedOfLight speed_of_light(double flops, double bytes, double measured_ms, const Calibration& c,
                            double compute_gflops) {
  SpeedOfLight s;
  double roof = compute_gflops > 0 ? compute_gflops : c.fp32_fma_gflops;
  if (c.copy_gbps > 0 && bytes > 0) s.memory_ms = bytes / (c.copy_gbps * 1e9) * 1e3;
  if (roof > 0 && flops > 0) s.compute_ms = flops / (roof * 1e9) * 1e3;
  s.floor_ms = std::max(s.memory_ms, s.compute_ms);
  if (s.floor_ms > 0) s.bound = s.memory_ms >= s.compute_ms ? "memory" : "compute";
  if (measured_ms > 0) s.percent = s.floor_ms / measured_ms * 100;
  return s;
}

}  // namespace judge
