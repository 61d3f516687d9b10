#include "judge/worker/l2_flush.hpp"

#include <algorithm>

namespace judge {

L2Flusher::L2Flusher(int device) {
  int l2 = 0;
  JUDGE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  scratch_ = DeviceBuffer(std::max<std::size_t>(2 * static_cast<std::size_t>(l2), 8u << 20));
}

void L2Flusher::flush(cudaStream_t stream) {
  // GPUs without persisting L2 (before Ampere) refuse the limit: nothing to reset there.
  if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) != cudaSuccess) cudaGetLastError();
  JUDGE_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
  JUDGE_CUDA_CHECK(cudaMemsetAsync(scratch_.get(), 0, scratch_.size(), stream));
}

}  // namespace judge
