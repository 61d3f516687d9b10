#pragma once
// Theoretical occupancy: how many blocks of a kernel fit on one SM at once, given its block size, registers per
// thread, shared memory per block and barriers, and what limits it. Computed on the host by the CUDA Toolkit's own
// calculator (cuda_occupancy.h, the same arithmetic as cudaOccupancyMaxActiveBlocksPerMultiprocessor), from the
// SM's limits that the worker read from the device, so results stored without a GPU can still be explained.
#include <cstdint>
#include <string>

namespace judge {

// One SM's resources, as cudaDeviceProp reports them.
struct SmLimits {
  int cc_major = 0;
  int cc_minor = 0;
  int warp_size = 32;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int regs_per_block = 0;
  int regs_per_sm = 0;
  std::int64_t smem_per_block = 0;        // without opt-in
  std::int64_t smem_per_block_optin = 0;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
  std::int64_t smem_per_sm = 0;
  std::int64_t reserved_smem_per_block = 0;
  bool known() const { return cc_major > 0 && regs_per_sm > 0 && max_threads_per_sm > 0; }
};

// The resources one block of a kernel asks for.
struct BlockResources {
  int threads = 0;
  int registers_per_thread = 0;
  std::int64_t static_smem = 0;
  std::int64_t dynamic_smem = 0;
  int barriers = 1;  // named barriers the kernel uses (ptxas "used N barriers"); 1 when unknown
};

struct Occupancy {
  int blocks_per_sm = 0;     // 0: the block cannot run at all (see error)
  int warps_per_sm = 0;      // active warps per SM at blocks_per_sm
  int max_warps_per_sm = 0;  // the SM's limit
  double percent() const { return max_warps_per_sm ? 100.0 * warps_per_sm / max_warps_per_sm : 0.0; }
  // What stops one more block from fitting: "registers", "shared memory", "warps" (the block's size), "blocks per
  // SM", "barriers"; several joined with " and " when they bind together.
  std::string limited_by;
  std::string error;  // set when the calculator refuses the input (an unknown GPU, an impossible block)
};

Occupancy theoretical_occupancy(const SmLimits& sm, const BlockResources& block);

}  // namespace judge
