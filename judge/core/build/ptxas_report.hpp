#pragma once
// What ptxas says about each kernel it compiles when the build passes it -v: registers per thread, spilled bytes,
// stack frame, static shared memory, barriers. The judge builds every submission so, keeps these lines out of the
// build's diagnostics (they are not warnings) and shows them beside the kernels solve() launched.
//
// The report's shape (nvcc 12 and 13), per kernel ("entry function"):
//   ptxas info    : Compiling entry function '_Z4kernPfi' for 'sm_90'
//   ptxas info    : Function properties for _Z4kernPfi
//       256 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
//   ptxas info    : Used 40 registers, used 1 barriers, 256 bytes cumulative stack size, 1024 bytes smem
// Device functions that were not inlined get a "Function properties" block of their own and no "Used" line.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

struct PtxasKernel {
  std::string name;  // as the compiler emitted it (mangled for C++ kernels), as CUPTI names it at run time
  std::string arch;  // "sm_90"
  int registers = 0;
  int barriers = -1;  // -1: not reported (older ptxas)
  std::int64_t spill_store_bytes = 0;
  std::int64_t spill_load_bytes = 0;
  std::int64_t stack_frame_bytes = 0;
  std::int64_t shared_bytes = 0;  // static shared memory per block
  bool spills() const { return spill_store_bytes > 0 || spill_load_bytes > 0; }
};

// Every kernel of the report, in the order ptxas compiled them; unknown lines are skipped.
std::vector<PtxasKernel> parse_ptxas_report(std::string_view text);

// The report's entry for `name` compiled for `arch` (any arch when none matches); nullptr when it has none.
const PtxasKernel* find_ptxas_kernel(const std::vector<PtxasKernel>& kernels, std::string_view name,
                                     std::string_view arch);

// nvcc's output split in two: ptxas's -v lines (with their continuation lines) and everything else, which stays
// the build's diagnostics (errors, warnings, the linker's complaints), in order.
struct NvccOutput {
  std::string diagnostics;
  std::string ptxas;
};
NvccOutput split_ptxas_report(std::string_view nvcc_output);

}  // namespace judge
