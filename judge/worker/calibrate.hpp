#pragma once
// Measures the ceilings of one GPU (`judge calibrate`): device-to-device copy bandwidth, the FP32 FMA rate, and
// cuBLAS GEMM rates in FP32, TF32, FP16 and BF16. Each figure is the median of at least ten repetitions timed with
// CUDA events, after a warm-up, on random data, with problems sized to fill the chip.
#include <functional>
#include <string>

#include "judge/core/measure/calibration.hpp"

namespace judge {

// `progress` (may be empty) is called before each step with a label ("copy bandwidth", "SGEMM FP32", ...) and the
// fraction of the work done so far, and with ("done", 1) at the end. Throws CudaError or Error naming the failed
// CUDA or cuBLAS call.
Calibration measure_calibration(int device, const std::function<void(const std::string& step, double fraction)>& progress);

// `judge-worker calibrate --device N --message-fd FD`: measures and reports as JSON lines on fd FD: progress events,
// then {"event":"calibration",...} and {"event":"done"}; {"event":"fatal","message":...} on failure.
int calibrate_main(int device, int message_fd);

}  // namespace judge
