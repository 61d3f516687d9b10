#pragma once
// The SM limits of an NVIDIA H100 (compute capability 9.0) as cudaGetDeviceProperties reports them: the fixture of
// host tests that work out occupancy figures by hand.
#include "judge/core/measure/occupancy.hpp"

namespace judge::testing {

inline SmLimits h100_sm_limits() {
  SmLimits s;
  s.cc_major = 9;
  s.cc_minor = 0;
  s.warp_size = 32;
  s.max_threads_per_block = 1024;
  s.max_threads_per_sm = 2048;
  s.max_blocks_per_sm = 32;
  s.regs_per_block = 65536;
  s.regs_per_sm = 65536;
  s.smem_per_block = 49152;
  s.smem_per_block_optin = 232448;
  s.smem_per_sm = 233472;
  s.reserved_smem_per_block = 1024;
  return s;
}

}  // namespace judge::testing
