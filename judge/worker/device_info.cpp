#include "judge/worker/device_info.hpp"

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "judge/worker/cuda_check.hpp"

namespace judge {

std::vector<DeviceInfo> list_devices() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) return {};
  JUDGE_CUDA_CHECK(e);
  std::vector<DeviceInfo> out;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    JUDGE_CUDA_CHECK(cudaGetDeviceProperties(&p, d));
    DeviceInfo info;
    info.ordinal = d;
    info.name = p.name;
    info.compute_capability = fmt::format("{}.{}", p.major, p.minor);
    info.sm_count = p.multiProcessorCount;
    info.l2_bytes = p.l2CacheSize;
    info.memory_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
    info.memory_bus_bits = p.memoryBusWidth;
    info.sm.cc_major = p.major;
    info.sm.cc_minor = p.minor;
    info.sm.warp_size = p.warpSize;
    info.sm.max_threads_per_block = p.maxThreadsPerBlock;
    info.sm.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    info.sm.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    info.sm.regs_per_block = p.regsPerBlock;
    info.sm.regs_per_sm = p.regsPerMultiprocessor;
    info.sm.smem_per_block = static_cast<std::int64_t>(p.sharedMemPerBlock);
    info.sm.smem_per_block_optin = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
    info.sm.smem_per_sm = static_cast<std::int64_t>(p.sharedMemPerMultiprocessor);
    info.sm.reserved_smem_per_block = static_cast<std::int64_t>(p.reservedSharedMemPerBlock);
    JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&info.clock_khz, cudaDevAttrClockRate, d));
    JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, d));
    JUDGE_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
    JUDGE_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
    // The UUID as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
    const auto* u = reinterpret_cast<const unsigned char*>(p.uuid.bytes);
    info.uuid = "GPU-";
    for (int i = 0; i < 16; ++i) {
      if (i == 4 || i == 6 || i == 8 || i == 10) info.uuid += '-';
      info.uuid += fmt::format("{:02x}", u[i]);
    }
    out.push_back(info);
  }
  return out;
}

int print_probe() {
  using nlohmann::json;
  try {
    json devices = json::array();
    for (const auto& d : list_devices()) devices.push_back(d);
    std::cout << json{{"devices", devices}}.dump() << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::cout << json{{"devices", json::array()}, {"error", e.what()}}.dump() << std::endl;
    return 1;
  }
}

}  // namespace judge
