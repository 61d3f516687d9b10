#pragma once
// RAII owners of device memory.
//   DeviceBuffer   plain cudaMalloc'ed bytes.
//   GuardedBuffer  the buffer handed to solve(): [front guard][data][tail padding + back guard]. The guards are
//                  filled with a seeded pattern and checked after each call, so a write past either end of the
//                  data is caught (a memory violation), however small. Its memory is a SharedAllocation: the
//                  untrusted solver process maps it through a file descriptor (shared_allocation.hpp).
#include <cstddef>
#include <cstdint>
#include <utility>

#include "judge/worker/cuda_check.hpp"
#include "judge/worker/shared_allocation.hpp"

namespace judge {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) JUDGE_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceBuffer() {
    if (ptr_) JUDGE_CUDA_NOTHROW(cudaFree(ptr_));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) JUDGE_CUDA_NOTHROW(cudaFree(ptr_));
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return ptr_; }
  std::byte* bytes_ptr() const { return static_cast<std::byte*>(ptr_); }
  std::size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

class GuardedBuffer {
 public:
  static constexpr std::size_t kGuardBytes = 64 * 1024;  // also keeps data 256-byte aligned like cudaMalloc's
  static constexpr std::size_t kAlign = 256;

  GuardedBuffer() = default;
  // guard_bytes = 0 gives an exact-size allocation with no guards (under compute-sanitizer, whose own padding
  // then sees every overrun; guards inside the allocation would hide them from it).
  explicit GuardedBuffer(std::size_t data_bytes, std::size_t guard_bytes = kGuardBytes)
      : guard_bytes_(guard_bytes),
        data_bytes_(data_bytes),
        padded_bytes_(guard_bytes ? (data_bytes + kAlign - 1) / kAlign * kAlign : data_bytes),
        storage_(guard_bytes + padded_bytes_ + guard_bytes) {}

  void* data() const { return base() + guard_bytes_; }
  std::size_t data_bytes() const { return data_bytes_; }
  std::size_t guard_bytes() const { return guard_bytes_; }
  // The whole allocation; the guard regions are [0, guard_bytes) and [guard_bytes + data_bytes, total).
  std::byte* base() const { return static_cast<std::byte*>(storage_.get()); }
  std::size_t total_bytes() const { return storage_.size(); }
  // What the solver maps (the allocation rounded up to its granularity), and an fd for it (the caller owns it).
  std::size_t mapped_bytes() const { return storage_.mapped_size(); }
  int export_fd() const { return storage_.export_fd(); }
  std::size_t back_guard_offset() const { return guard_bytes_ + data_bytes_; }

 private:
  std::size_t guard_bytes_ = 0;
  std::size_t data_bytes_ = 0;
  std::size_t padded_bytes_ = 0;
  SharedAllocation storage_;
};

}  // namespace judge
