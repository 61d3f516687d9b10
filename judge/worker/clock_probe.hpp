#pragma once
// The SM clock right now, measured on the device: a short kernel counts clock64() cycles against %globaltimer
// nanoseconds. Run after a timed call (outside its window), it tells whether the GPU was throttling.
#include <memory>

#include <cuda_runtime.h>

namespace judge {

class ClockProbe {
 public:
  explicit ClockProbe(int device);
  // MHz measured over about 50 microseconds on `stream`.
  double measure_mhz(cudaStream_t stream);
  double max_mhz() const { return max_mhz_; }

 private:
  double max_mhz_ = 0;
  unsigned long long* result_ = nullptr;  // device: cycles, nanoseconds
  struct Free {
    void operator()(unsigned long long* p) const;
  };
  std::unique_ptr<unsigned long long, Free> owner_;
};

}  // namespace judge
