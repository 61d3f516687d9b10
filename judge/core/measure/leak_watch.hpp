#pragma once
// Device memory a benchmark's calls keep, and when that is a leak. The worker reads a figure of memory held right
// before and right after each call of solve() and asks here after every call.
//
// Two instruments, the first whenever the machine gives it:
//   solver  the memory the solver's own processes hold (NVML's per-process accounting, worker/solver_memory.hpp).
//           Nothing else on the GPU moves it, so what a call keeps is exactly what solve() left allocated.
//   device  total minus free memory of the whole GPU. Every process on it moves that figure: a training job, or
//           other judges sharing the GPU, whose allocations land inside our calls and, when they keep inputs for
//           their whole run, stay. A leak read this way is only called one when most of what the calls seemed to
//           keep is still missing; even so a process that allocates on every call of its own (another judge's
//           leaking submission) can look like ours, and the message says which instrument spoke.
//
// The rule, either way: solve() leaks when every one of the last kLeakCalls calls kept at least 8 MiB, the calls
// together kept at least 256 MiB, and at least half of that is still held since before the first call. A scratch
// buffer allocated once and kept (a cache) is one call's worth, not a streak; a pool that grows and is given back
// is not still held.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace judge {

enum class MemorySource { solver, device };

// "the solver's own memory (NVML)" or "the GPU's free memory (device-wide)".
std::string describe_memory_source(MemorySource source);
// "solver" or "device", for reports.
const char* memory_source_name(MemorySource source);

class LeakWatch {
 public:
  static constexpr std::size_t kPerCall = std::size_t(8) << 20, kTotal = std::size_t(256) << 20;
  static constexpr int kLeakCalls = 4;

  explicit LeakWatch(MemorySource source) : source_(source) {}

  // One call's readings of memory held, right before and right after it. `held_now` reads the figure again; it is
  // asked only when the streak and the total say leak, to see whether the memory came back. Returns the message
  // when solve() leaks.
  std::optional<std::string> after_call(std::size_t held_before, std::size_t held_after,
                                        const std::function<std::size_t()>& held_now);

  MemorySource source() const { return source_; }

 private:
  MemorySource source_;
  std::size_t first_held_ = 0;  // before the first call
  int calls_ = 0;
  int streak_ = 0;
  std::size_t kept_total_ = 0;
};

}  // namespace judge
