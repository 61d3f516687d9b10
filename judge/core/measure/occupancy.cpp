#include "judge/core/measure/occupancy.hpp"

#include <cuda_occupancy.h>

#include <fmt/format.h>

namespace judge {

Occupancy theoretical_occupancy(const SmLimits& sm, const BlockResources& block) {
  Occupancy o;
  if (!sm.known()) {
    o.error = "the GPU's SM limits are not known (a result stored by an older judge)";
    return o;
  }
  o.max_warps_per_sm = sm.max_threads_per_sm / sm.warp_size;
  cudaOccDeviceProp prop;
  prop.computeMajor = sm.cc_major;
  prop.computeMinor = sm.cc_minor;
  prop.maxThreadsPerBlock = sm.max_threads_per_block;
  prop.maxThreadsPerMultiprocessor = sm.max_threads_per_sm;
  prop.regsPerBlock = sm.regs_per_block;
  prop.regsPerMultiprocessor = sm.regs_per_sm;
  prop.warpSize = sm.warp_size;
  prop.sharedMemPerBlock = static_cast<size_t>(sm.smem_per_block);
  prop.sharedMemPerMultiprocessor = static_cast<size_t>(sm.smem_per_sm);
  prop.numSms = 1;
  prop.sharedMemPerBlockOptin = static_cast<size_t>(sm.smem_per_block_optin);
  prop.reservedSharedMemPerBlock = static_cast<size_t>(sm.reserved_smem_per_block);

  cudaOccFuncAttributes attr;
  attr.maxThreadsPerBlock = sm.max_threads_per_block;
  attr.numRegs = block.registers_per_thread;
  attr.sharedSizeBytes = static_cast<size_t>(block.static_smem);
  // The launch happened, so whatever dynamic shared memory it asked for was allowed (opted in if it had to be).
  attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attr.maxDynamicSharedSizeBytes = static_cast<size_t>(block.dynamic_smem);
  attr.numBlockBarriers = block.barriers;

  cudaOccDeviceState state;  // default carveout: the driver picks the split that fits the most blocks
  cudaOccResult result{};
  cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state, block.threads,
                                                           static_cast<size_t>(block.dynamic_smem));
  if (e != CUDA_OCC_SUCCESS) {
    o.error = e == CUDA_OCC_ERROR_UNKNOWN_DEVICE
                  ? fmt::format("the occupancy calculator of this CUDA Toolkit does not know compute capability {}.{}",
                                sm.cc_major, sm.cc_minor)
                  : fmt::format("the occupancy calculator refused a block of {} threads, {} registers per thread and "
                                "{} bytes of shared memory",
                                block.threads, block.registers_per_thread, block.static_smem + block.dynamic_smem);
    return o;
  }
  o.blocks_per_sm = result.activeBlocksPerMultiprocessor;
  const int warps_per_block = (block.threads + sm.warp_size - 1) / sm.warp_size;
  o.warps_per_sm = o.blocks_per_sm * warps_per_block;
  static constexpr struct {
    unsigned bit;
    const char* name;
  } kFactors[] = {{OCC_LIMIT_REGISTERS, "registers"},
                  {OCC_LIMIT_SHARED_MEMORY, "shared memory"},
                  {OCC_LIMIT_WARPS, "warps"},
                  {OCC_LIMIT_BLOCKS, "blocks per SM"},
                  {OCC_LIMIT_BARRIERS, "barriers"}};
  for (const auto& f : kFactors)
    if (result.limitingFactors & f.bit) o.limited_by += (o.limited_by.empty() ? "" : " and ") + std::string(f.name);
  if (o.blocks_per_sm == 0 && o.error.empty())
    o.error = fmt::format("a block of {} threads with {} registers per thread and {} bytes of shared memory does not "
                          "fit on one SM",
                          block.threads, block.registers_per_thread, block.static_smem + block.dynamic_smem);
  return o;
}

}  // namespace judge
