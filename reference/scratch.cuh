#pragma once
// Device memory a reference keeps between calls. References run one case at a time and a challenge's cases mostly fit
// the largest buffer seen so far, so a static Scratch that only grows pays cudaMalloc (which synchronises the device)
// once per size step instead of once per call.
#include <cstddef>

#include <fmt/format.h>

#include "judge/worker/device_buffer.hpp"
#include "reference/reference_util.cuh"

namespace judge::ref {

class Scratch {
 public:
  // name says what the buffer holds, for the error message of a failed allocation.
  Scratch(const char* challenge, const char* name) : challenge_(challenge), name_(name) {}
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  // Room for at least count elements of T, uninitialised (nullptr while nothing was ever asked for).
  template <class T>
  T* get(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes > buffer_.size()) grow(bytes);
    return static_cast<T*>(buffer_.get());
  }

  // Runs a CUB device algorithm with this buffer as its temporary storage, by CUB's two-call convention:
  // run(nullptr, bytes) only sets bytes, then run(storage, bytes) does the work. run returns CUB's cudaError_t.
  template <class Run>
  void run_cub(const char* what, Run run) {
    std::size_t bytes = 0;
    check_cuda(run(nullptr, bytes), challenge_, what);
    check_cuda(run(get<char>(bytes), bytes), challenge_, what);
  }

 private:
  void grow(std::size_t bytes) {
    // Free the old buffer first, so the peak is the new size and not the sum of both. That cudaFree does not throw
    // (DeviceBuffer's rule for releasing); an error it meets is sticky or asynchronous, and the cudaMalloc below
    // reports it.
    buffer_ = DeviceBuffer();
    try {
      buffer_ = DeviceBuffer(bytes);
    } catch (const CudaError& e) {
      // DeviceBuffer throws the worker's CudaError, which the runner charges to the submission that ran last; a
      // reference that cannot get memory is the judge's failure, reported as check_cuda reports every other one.
      check_cuda(e.code(), challenge_, fmt::format("cudaMalloc({} bytes of {})", bytes, name_).c_str());
    }
  }

  const char* challenge_;
  const char* name_;
  DeviceBuffer buffer_;
};

}  // namespace judge::ref
