#pragma once
// Device memory two processes share: the trusted worker allocates it and hands the untrusted solver a file
// descriptor for it; nothing else of the worker's is reachable from the solver's context.
//
// CUDA's virtual memory management API (cuMemCreate with POSIX file-descriptor handles) rather than legacy IPC
// handles: an fd is a capability the kernel passes only to whom we send it (SCM_RIGHTS), where a legacy handle is
// bytes another process could guess or copy, and fd handles work across PID namespaces and uids (GPU-FACTS.md).
//   SharedAllocation  the owner's side: allocates, maps for itself, exports an fd on request.
//   MappedAllocation  the importer's side: maps an exported fd into its own address space.
// Both resolve the driver's entry points through the runtime (cudaGetDriverEntryPointByVersion), so the executables
// do not link libcuda and still start on a machine without a driver (they then report that no device is present).
#include <cstddef>
#include <cstdint>
#include <utility>

namespace judge {

class SharedAllocation {
 public:
  SharedAllocation() = default;
  // At least `bytes` on the current device, rounded up to the allocation granularity (2 MiB on Hopper).
  explicit SharedAllocation(std::size_t bytes);
  ~SharedAllocation();
  SharedAllocation(SharedAllocation&& o) noexcept { swap(o); }
  SharedAllocation& operator=(SharedAllocation&& o) noexcept {
    SharedAllocation tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  SharedAllocation(const SharedAllocation&) = delete;
  SharedAllocation& operator=(const SharedAllocation&) = delete;

  void* get() const { return reinterpret_cast<void*>(ptr_); }
  std::size_t size() const { return bytes_; }          // as requested
  std::size_t mapped_size() const { return mapped_; }  // as allocated; what an importer maps
  // A new file descriptor for the allocation (close-on-exec); the caller owns it. Throws CudaError.
  int export_fd() const;

 private:
  void swap(SharedAllocation& o) noexcept {
    std::swap(handle_, o.handle_);
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    std::swap(mapped_, o.mapped_);
  }
  unsigned long long handle_ = 0;  // CUmemGenericAllocationHandle
  std::uintptr_t ptr_ = 0;         // CUdeviceptr
  std::size_t bytes_ = 0;
  std::size_t mapped_ = 0;
};

class MappedAllocation {
 public:
  MappedAllocation() = default;
  // Maps `mapped_bytes` of the allocation behind `fd` (which stays the caller's to close) read-write on the current
  // device. Throws CudaError when the fd is not an allocation of that size.
  MappedAllocation(int fd, std::size_t mapped_bytes);
  ~MappedAllocation();
  MappedAllocation(MappedAllocation&& o) noexcept
      : ptr_(std::exchange(o.ptr_, 0)), mapped_(std::exchange(o.mapped_, 0)) {}
  MappedAllocation& operator=(MappedAllocation&& o) noexcept {
    MappedAllocation tmp(std::move(o));
    std::swap(ptr_, tmp.ptr_);
    std::swap(mapped_, tmp.mapped_);
    return *this;
  }
  MappedAllocation(const MappedAllocation&) = delete;
  MappedAllocation& operator=(const MappedAllocation&) = delete;

  void* get() const { return reinterpret_cast<void*>(ptr_); }
  std::size_t size() const { return mapped_; }

 private:
  std::uintptr_t ptr_ = 0;
  std::size_t mapped_ = 0;
};

}  // namespace judge
