#pragma once
// The device memory the solver's processes hold, from NVML's per-process accounting: what the leak watch reads
// when the machine gives it (core/measure/leak_watch.hpp), since nothing else on the GPU moves it.
//
// NVML comes with the driver (libnvidia-ml.so.1), not the toolkit, so it is loaded at run time: a machine without
// it, a GPU it does not list, or a driver whose process IDs are not this PID namespace's (a container without the
// host's PIDs) leaves held() empty, why_not() says which, and the leak watch reads the device's free memory instead.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace judge {

class SolverMemory {
 public:
  // `gpu_uuid` as CUDA and NVML print it ("GPU-xxxxxxxx-..."); `solver_pid` the process the worker started.
  // Nothing happens until the first held(), so a run without benchmarks never loads NVML (its initialisation can
  // take a while on a host without persistence mode). Ask once the solver is ready: its process tree (bubblewrap's
  // and the solver's) is read then, and cannot grow (the solver's seccomp filter forbids new processes). Never
  // throws.
  SolverMemory(std::string gpu_uuid, int solver_pid);
  ~SolverMemory();
  SolverMemory(const SolverMemory&) = delete;
  SolverMemory& operator=(const SolverMemory&) = delete;

  // Bytes of device memory the solver's processes hold on the GPU, or nullopt (why_not() says why; empty before
  // the first call).
  std::optional<std::size_t> held();
  const std::string& why_not() const { return why_not_; }
  const std::vector<int>& pids() const { return pids_; }

 private:
  struct Nvml;
  void open();  // loads NVML, finds the GPU, reads the solver's process tree; sets why_not_ when it cannot
  std::string gpu_uuid_;
  int solver_pid_ = -1;
  bool opened_ = false;
  Nvml* nvml_ = nullptr;  // owned; null when NVML or the GPU could not be had
  std::vector<int> pids_;
  std::string why_not_;
};

}  // namespace judge
