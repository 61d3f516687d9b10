#include "judge/worker/solver_memory.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "judge/core/base/process_tree.hpp"

namespace judge {

namespace {

// The few NVML declarations used here, as nvml.h has them (the toolkit's header is not on every build machine).
using NvmlReturn = int;
constexpr NvmlReturn kNvmlSuccess = 0, kNvmlInsufficientSize = 7;
using NvmlDevice = struct NvmlDeviceOpaque*;
// nvmlProcessInfo_v2_t, which the _v2 and _v3 process queries fill.
struct NvmlProcessInfo {
  unsigned int pid;
  unsigned long long used_gpu_memory;  // NVML_VALUE_NOT_AVAILABLE (all ones) when the driver withholds it
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
constexpr unsigned long long kNvmlValueNotAvailable = ~0ull;

}  // namespace

struct SolverMemory::Nvml {
  void* library = nullptr;
  bool initialised = false;
  NvmlDevice device = nullptr;
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  NvmlReturn (*by_uuid)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*processes)(NvmlDevice, unsigned int*, NvmlProcessInfo*) = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;

  std::string error(NvmlReturn r) const {
    return error_string ? fmt::format("{} ({})", error_string(r), r) : fmt::format("error {}", r);
  }
  ~Nvml() {
    if (initialised) static_cast<void>(shutdown());
    if (library) ::dlclose(library);
  }
};

SolverMemory::SolverMemory(std::string gpu_uuid, int solver_pid)
    : gpu_uuid_(std::move(gpu_uuid)), solver_pid_(solver_pid) {}

void SolverMemory::open() {
  opened_ = true;
  const std::string& gpu_uuid = gpu_uuid_;
  const int solver_pid = solver_pid_;
  auto nvml = std::make_unique<Nvml>();
  nvml->library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml->library) {
    why_not_ = "NVML (libnvidia-ml.so.1, part of the driver) could not be loaded";
    return;
  }
  auto symbol = [&](const char* name) { return ::dlsym(nvml->library, name); };
  nvml->init = reinterpret_cast<NvmlReturn (*)()>(symbol("nvmlInit_v2"));
  nvml->shutdown = reinterpret_cast<NvmlReturn (*)()>(symbol("nvmlShutdown"));
  nvml->by_uuid = reinterpret_cast<NvmlReturn (*)(const char*, NvmlDevice*)>(symbol("nvmlDeviceGetHandleByUUID"));
  void* processes = symbol("nvmlDeviceGetComputeRunningProcesses_v3");
  if (!processes) processes = symbol("nvmlDeviceGetComputeRunningProcesses_v2");
  nvml->processes = reinterpret_cast<NvmlReturn (*)(NvmlDevice, unsigned int*, NvmlProcessInfo*)>(processes);
  nvml->error_string = reinterpret_cast<const char* (*)(NvmlReturn)>(symbol("nvmlErrorString"));
  if (!nvml->init || !nvml->shutdown || !nvml->by_uuid || !nvml->processes) {
    why_not_ = "this NVML lacks the per-process memory query (nvmlDeviceGetComputeRunningProcesses_v2/_v3)";
    return;
  }
  if (NvmlReturn r = nvml->init(); r != kNvmlSuccess) {
    why_not_ = fmt::format("nvmlInit failed: {}", nvml->error(r));
    return;
  }
  nvml->initialised = true;
  if (NvmlReturn r = nvml->by_uuid(gpu_uuid.c_str(), &nvml->device); r != kNvmlSuccess) {
    why_not_ = fmt::format("NVML does not find GPU {}: {}", gpu_uuid, nvml->error(r));
    return;
  }
  pids_ = process_tree(solver_pid);
  if (pids_.empty()) {
    why_not_ = fmt::format("the solver's process {} is not in /proc", solver_pid);
    return;
  }
  nvml_ = nvml.release();
}

SolverMemory::~SolverMemory() { delete nvml_; }

std::optional<std::size_t> SolverMemory::held() {
  if (!opened_) open();
  if (!nvml_) return std::nullopt;
  // Every process with a context on the GPU: a few per judge sharing it, rarely more than a few dozen.
  std::vector<NvmlProcessInfo> infos(64);
  for (int attempt = 0; attempt < 4; ++attempt) {
    unsigned int count = static_cast<unsigned int>(infos.size());
    NvmlReturn r = nvml_->processes(nvml_->device, &count, infos.data());
    if (r == kNvmlInsufficientSize) {
      infos.resize(std::size_t(count) + 16);  // more processes came since it counted them
      continue;
    }
    if (r != kNvmlSuccess) {
      why_not_ = fmt::format("NVML's process list failed: {}", nvml_->error(r));
      return std::nullopt;
    }
    std::size_t bytes = 0;
    bool listed = false;
    for (unsigned int i = 0; i < count; ++i) {
      if (std::find(pids_.begin(), pids_.end(), static_cast<int>(infos[i].pid)) == pids_.end()) continue;
      if (infos[i].used_gpu_memory == kNvmlValueNotAvailable) {
        why_not_ = "NVML withholds the processes' memory figures on this GPU";
        return std::nullopt;
      }
      listed = true;
      bytes += static_cast<std::size_t>(infos[i].used_gpu_memory);
    }
    if (!listed) {
      // The solver has a context on the GPU before it says it is ready, so NVML lists it, under the PID the driver
      // sees: not ours when the judge runs in a PID namespace of its own.
      why_not_ = fmt::format("NVML lists none of the solver's processes ({}) on the GPU: does the judge run in a PID "
                             "namespace other than the driver's (a container)?",
                             fmt::join(pids_, ", "));
      return std::nullopt;
    }
    return bytes;
  }
  why_not_ = "NVML's process list kept growing while it was read";
  return std::nullopt;
}

}  // namespace judge
