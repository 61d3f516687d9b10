#pragma once
// The kernels table that `judge submit` and `judge run --case <benchmark>` print under the timing table: per kernel
// solve() launched while timed, its share of the GPU time, launches per call, block size, registers, spills, shared
// and local memory, and theoretical occupancy with what limits it; then notes on what stands out (spills, an
// occupancy held down by one resource). Plain text: the console reporter paints around it.
#include <string>
#include <vector>

#include "judge/core/measure/kernel_resources.hpp"

namespace judge {

// "0 B", "512 B", "48 KiB", "1.5 KiB".
std::string format_bytes_short(std::int64_t bytes);
// "50% (32/64 warps, registers)", or why it is unknown.
std::string occupancy_text(const Occupancy& o);
// "0", "64/64 B" (stores/loads), "-" when ptxas did not report the kernel (a library's).
std::string spills_text(const KernelResources& k);

// A kernel's resources on one line: "256 threads, 128 registers, 0 spills, 32 KiB shared, occupancy 50% (32/64
// warps, registers)" (no spills figure for a kernel ptxas did not report).
std::string resources_text(const KernelResources& k);
// One kernel on one line, for the ladder: "sgemm<128>: " and its resources_text.
std::string kernel_summary(const KernelResources& k);

struct KernelTable {
  std::vector<std::string> lines;  // header first; empty when there are no kernels
  std::vector<std::string> notes;  // one sentence each
};
KernelTable kernel_table(const std::vector<KernelResources>& kernels);

}  // namespace judge
