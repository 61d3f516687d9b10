// `judge-worker calibrate`: the worker side of `judge calibrate`. Measuring happens here, in a child process, for
// the same reason submissions run here: the judge itself never creates a CUDA context.
#include <exception>

#include <nlohmann/json.hpp>

#include "judge/worker/calibrate.hpp"
#include "judge/worker/cuda_check.hpp"
#include "judge/worker/device_info.hpp"
#include "judge/worker/messages.hpp"

namespace judge {

int calibrate_main(int device, int message_fd) {
  MessageChannel messages(message_fd);
  try {
    auto devices = list_devices();
    if (devices.empty()) {
      messages.send({{"event", "fatal"},
                     {"message", "no CUDA device is present (cudaGetDeviceCount found none): nothing to calibrate"}});
      return 2;
    }
    if (device < 0 || device >= static_cast<int>(devices.size()))
      JUDGE_THROW(Error, "device {} does not exist ({} visible)", device, devices.size());
    JUDGE_CUDA_CHECK(cudaSetDevice(device));
    JUDGE_CUDA_CHECK(cudaFree(nullptr));  // the context now, so its creation is not charged to the first step
    Calibration c = measure_calibration(device, [&](const std::string& step, double fraction) {
      messages.send({{"event", "progress"}, {"step", step}, {"fraction", fraction}});
    });
    messages.send({{"event", "calibration"}, {"calibration", c}});
    messages.send({{"event", "done"}});
    return 0;
  } catch (const std::exception& e) {
    messages.send({{"event", "fatal"}, {"message", e.what()}});
  }
  return 1;
}

}  // namespace judge
