#include "judge/core/measure/leak_watch.hpp"

#include <fmt/format.h>

namespace judge {

std::string describe_memory_source(MemorySource source) {
  return source == MemorySource::solver ? "the solver's own device memory (NVML, per process)"
                                        : "the GPU's free memory (device-wide: other processes on the GPU move it too)";
}

const char* memory_source_name(MemorySource source) { return source == MemorySource::solver ? "solver" : "device"; }

std::optional<std::string> LeakWatch::after_call(std::size_t held_before, std::size_t held_after,
                                                 const std::function<std::size_t()>& held_now) {
  if (calls_++ == 0) first_held_ = held_before;
  const std::size_t kept = held_after > held_before ? held_after - held_before : 0;
  streak_ = kept >= kPerCall ? streak_ + 1 : 0;
  kept_total_ += kept;
  if (streak_ < kLeakCalls || kept_total_ < kTotal) return std::nullopt;
  // Leaked memory stays held; working memory comes back (a pool given back, or another process's buffers when the
  // figure is device-wide). When most of what the calls seemed to keep is free again, it was no leak.
  const std::size_t now = held_now();
  const std::size_t missing = now > first_held_ ? now - first_held_ : 0;
  if (missing < kept_total_ / 2) {
    streak_ = 0;
    kept_total_ = 0;
    return std::nullopt;
  }
  return fmt::format("solve() leaks device memory: each of its last {} calls kept at least 8 MiB, {:.0f} MiB in {} "
                     "calls (about {:.1f} MiB per call), read from {}; free what you allocate",
                     streak_, kept_total_ / 1048576.0, calls_, kept_total_ / 1048576.0 / calls_, describe_memory_source(source_));
}

}  // namespace judge
