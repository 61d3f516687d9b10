#pragma once
// Cold-cache measurements: before each timed call the L2 is refilled with other data (twice its size, read from the
// device, by reading so the lines are clean) and
// persisting-L2 lines and the persisting carve-out are reset, outside the timed region, so a call never finds its
// inputs already cached, whatever the previous call set up.
#include <cuda_runtime.h>

#include "judge/worker/device_buffer.hpp"

namespace judge {

class L2Flusher {
 public:
  explicit L2Flusher(int device);
  void flush(cudaStream_t stream);
  const void* scratch() const { return scratch_.get(); }

 private:
  DeviceBuffer scratch_;
  DeviceBuffer sink_;
  int blocks_ = 1;
};

}  // namespace judge
