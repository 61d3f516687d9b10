#pragma once
// The resources of every kernel a solution launched while its benchmarks were timed, the numbers the occupancy
// lesson needs beside the time: block size, registers per thread, spills (from ptxas), static and dynamic shared
// memory, local memory, theoretical occupancy and what limits it, and each kernel's share of the time kernels ran.
// Built on the host from what the worker recorded (CUPTI's kernel records), the build's ptxas report and the SM's
// limits, so it is testable without a GPU and works on stored results.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/build/ptxas_report.hpp"
#include "judge/core/measure/occupancy.hpp"
#include "judge/core/measure/result.hpp"

namespace judge {

struct KernelResources {
  std::string name;          // as compiled (mangled)
  std::string display_name;  // demangled, without its parameter list: "sgemm<128, 128, 8>"
  std::array<int, 3> block{};
  int registers = 0;
  std::int64_t static_smem = 0;
  std::int64_t dynamic_smem = 0;
  std::int64_t local_bytes = 0;       // per thread, stack and spills (CUPTI)
  std::optional<PtxasKernel> ptxas;   // the build's report of it; none for library kernels (cuBLAS)
  Occupancy occupancy;
  double launches_per_call = 0;       // averaged over the benchmark cases it ran in
  double time_percent = 0;            // of the time the benchmarks' kernels ran, gaps between them aside
  std::vector<std::string> cases;     // the benchmark cases it ran in
  int block_threads() const { return block[0] * block[1] * block[2]; }
};

// One row per kernel and launch shape (name, block, registers, shared memory), the grid aside, over the benchmark
// cases; most GPU time first. `device` may be null or lack SM limits: then occupancy says why it is unknown.
std::vector<KernelResources> kernel_resources(const std::vector<CaseResult>& cases,
                                              const std::vector<PtxasKernel>& ptxas, const DeviceInfo* device);

// "_Z4kernPfi" -> "kern(float*, int)"; a name that is not a mangled C++ name comes back as it is.
std::string demangle_kernel_name(const std::string& name);
// The demangled name without its parameter list and leading "void ": "void tk<3>(float*)" -> "tk<3>".
std::string short_kernel_name(const std::string& name);

nlohmann::json to_json(const KernelResources& k);
// The inverse of to_json, for stored results (a ladder run kept in bench/); throws nlohmann's errors on a document
// that lacks a field, which callers turn into an error naming the file.
KernelResources kernel_resources_from_json(const nlohmann::json& j);

}  // namespace judge
