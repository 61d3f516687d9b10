#pragma once
// Small results of the judge's own check kernels (counters, first offsets) travel through one reused pair of
// buffers: device memory the kernels update and pinned host memory they come back to, instead of a cudaMalloc, a
// cudaFree (which waits for the whole device) and two pageable copies per check. Measured on an H200 that saved
// little (0.59 to 0.56 ms of checks per call at 1 MB; docs/measurement.md), but it is the simpler shape too.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include <cuda_runtime.h>

#include "judge/worker/cuda_check.hpp"

namespace judge {

template <class T>
__global__ void readback_init_kernel(T* slot, T value) {
  *slot = value;
}

class Readback {
 public:
  static constexpr std::size_t kBytes = 256;

  // The process's one instance, made on first use for the current device (a worker uses one). Never destroyed: its
  // memory goes with the context, and a cudaFree during static destruction could run after the runtime's teardown.
  static Readback& instance() {
    static Readback* r = new Readback;
    return *r;
  }

  // A device slot holding `init`, set on `stream` (by a kernel: nothing on the host to outlive), for a check kernel
  // to update.
  template <class T>
  T* slot(const T& init, cudaStream_t stream) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kBytes, "a readback slot holds a small POD");
    readback_init_kernel<T><<<1, 1, 0, stream>>>(static_cast<T*>(device_), init);
    JUDGE_CUDA_CHECK(cudaGetLastError());
    return static_cast<T*>(device_);
  }

  // Waits for `stream` and returns what its kernels left in the slot.
  template <class T>
  T read(cudaStream_t stream) {
    JUDGE_CUDA_CHECK(cudaMemcpyAsync(host_, device_, sizeof(T), cudaMemcpyDeviceToHost, stream));
    JUDGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    T out;
    std::memcpy(&out, host_, sizeof(T));
    return out;
  }

  Readback(const Readback&) = delete;
  Readback& operator=(const Readback&) = delete;

 private:
  Readback() {
    JUDGE_CUDA_CHECK(cudaMalloc(&device_, kBytes));
    JUDGE_CUDA_CHECK(cudaMallocHost(&host_, kBytes));
  }
  void* device_ = nullptr;
  void* host_ = nullptr;
};

}  // namespace judge
