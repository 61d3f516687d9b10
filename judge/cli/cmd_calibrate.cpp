// `judge calibrate`: this GPU's ceilings (copy bandwidth, FP32 FMA and cuBLAS GEMM rates), measured once by the
// worker and stored per GPU; later calls print the stored figures unless --force asks for a new measurement.
#include <unistd.h>

#include "judge/cli/cli.hpp"
#include "judge/core/base/paths.hpp"
#include "judge/core/measure/calibration.hpp"
#include "judge/core/run/judging.hpp"

namespace judge::cli {

namespace {
struct CalibrateOptions {
  int device = 0;
  bool force = false;
};
}  // namespace

void setup_calibrate(CLI::App& app, const GlobalOptions& g) {
  auto opt = std::make_shared<CalibrateOptions>();
  auto* sub = app.add_subcommand("calibrate", "Measure this GPU's ceilings (copy bandwidth, FMA and GEMM rates) once "
                                              "and store them; prints the stored figures when there are some");
  sub->add_option("--device", opt->device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
  sub->add_flag("--force", opt->force, "Measure again even if this GPU has a stored calibration");
  sub->callback([opt, &g] {
    exit_code() = guarded(g, [&](Reporter& rep) {
      std::filesystem::path worker = worker_path();
      ProbeResult probe = probe_devices(worker);
      if (probe.devices.empty())
        JUDGE_THROW(Error, "no CUDA device is present, so there is nothing to calibrate{}",
                    probe.error.empty() ? "" : " (" + probe.error + ")");
      if (opt->device >= static_cast<int>(probe.devices.size()))
        JUDGE_THROW(Error, "there is no CUDA device {} ({} present)", opt->device, probe.devices.size());
      DeviceInfo device = probe.devices[opt->device];
      device.ordinal = opt->device;

      CalibrationStore store(CalibrationStore::default_path());
      auto stored = store.find(device.name);  // also with --force: a corrupt store is reported before measuring
      if (stored && stored->plausible() && !opt->force) {
        rep.calibration(*stored, false, store.path().string(), std::cout);
        return kExitOk;
      }
      bool show_progress = !g.json && ::isatty(STDERR_FILENO);
      Calibration c = measure_with_progress(worker, device, show_progress, std::cerr);
      store.save(c);
      rep.calibration(c, true, store.path().string(), std::cout);
      return kExitOk;
    });
  });
}

}  // namespace judge::cli
