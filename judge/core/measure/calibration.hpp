#pragma once
// The measured ceilings of one GPU (`judge calibrate`), stored per GPU, and the speed-of-light they give a case:
// the larger of bytes / copy bandwidth and flops / arithmetic rate. A measured time far below that floor is not
// physically possible and is rejected as suspicious timing.
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/core/challenge/dtype.hpp"

#include "judge/core/base/error.hpp"
#include "judge/core/base/progress_line.hpp"
#include "judge/core/measure/result.hpp"

namespace judge {

struct Calibration {
  std::string gpu_name;
  std::string compute_capability;
  int sm_count = 0;
  std::string measured_at;     // ISO 8601 UTC
  std::string judge_version;
  double copy_gbps = 0;        // cudaMemcpy device-to-device, bytes read + written per second / 1e9
  double fp32_fma_gflops = 0;  // FFMA throughput kernel (2 flops per FMA)
  double sgemm_gflops = 0;     // cuBLAS FP32 GEMM, pedantic (no TF32)
  double tf32_gflops = 0;      // cuBLAS GEMM, FP32 in/out, TF32 tensor cores
  double fp16_gflops = 0;      // cuBLAS GEMM, FP16 in, FP32 accumulate
  double bf16_gflops = 0;      // cuBLAS GEMM, BF16 in, FP32 accumulate
  double int8_gops = 0;        // cuBLAS GEMM, INT8 in, INT32 accumulate (integer operations: 2 per multiply-add)
  bool plausible() const;      // every figure positive and finite
};

void to_json(nlohmann::json& j, const Calibration& c);
void from_json(const nlohmann::json& j, Calibration& c);

// Calibrations on disk, one per GPU name: a JSON file ($JUDGE_CALIBRATION, else calibration.json beside the default
// leaderboard database, or in the judge's data folder when that is a PostgreSQL one). Writes are atomic (temp file +
// rename).
class CalibrationStore {
 public:
  explicit CalibrationStore(std::filesystem::path file);
  static std::filesystem::path default_path();
  std::optional<Calibration> find(const std::string& gpu_name) const;
  // Throws Error naming the file when it cannot be written.
  void save(const Calibration& c);
  const std::filesystem::path& path() const { return file_; }

 private:
  std::filesystem::path file_;
};

// Runs `judge-worker calibrate` on the device and returns what it measured. `progress` (may be empty) is called
// with a step description and fraction done, for a progress indicator. Throws Error if the worker fails.
Calibration run_calibration(const std::filesystem::path& worker, int device,
                            const std::function<void(const std::string& step, double fraction)>& progress);
// The same with another limit on the silence between two messages of the worker (the default is 300 s).
Calibration run_calibration(const std::filesystem::path& worker, int device,
                            const std::function<void(const std::string& step, double fraction)>& progress,
                            double message_limit_s);

// run_calibration for `device` (its ordinal), with a ProgressLine on progress_out when show_progress.
Calibration measure_with_progress(const std::filesystem::path& worker, const DeviceInfo& device, bool show_progress,
                                  std::ostream& progress_out);

// The calibration of `device` from the default store; if there is none, measures it (with a progress indicator on
// progress_out when show_progress) and stores it. A calibration that cannot be stored is still returned.
Calibration ensure_calibration(const std::filesystem::path& worker, const DeviceInfo& device, bool show_progress,
                               std::ostream& progress_out);

// The floor of one benchmark case on a calibrated GPU.
struct SpeedOfLight {
  double memory_ms = 0;   // bytes / copy bandwidth
  double compute_ms = 0;  // flops / the compute roof (FP32 FMA, or the tensor-core rate for half inputs)
  double floor_ms = 0;    // the larger of the two
  std::string bound;      // "memory" or "compute"
  double percent = 0;     // floor / measured median * 100
};
// The compute roof a challenge is measured against, GFLOP/s: the INT8, FP16 (or BF16) tensor-core GEMM rate when an input
// is float16 (bfloat16), since that is the unit such work runs on; else the FP32 FMA rate.
double compute_roof_gflops(const Calibration& c, const std::vector<DType>& input_dtypes);

// compute_gflops: the roof for the flops (compute_roof_gflops); 0 means the FP32 FMA rate.
SpeedOfLight speed_of_light(double flops, double bytes, double measured_ms, const Calibration& c,
                            double compute_gflops = 0);

// A measured time below this fraction of the floor is physically impossible even allowing for calibration noise.
constexpr double kSuspiciousFraction = 0.8;

}  // namespace judge
