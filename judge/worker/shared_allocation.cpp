#include "judge/worker/shared_allocation.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <fcntl.h>
#include <unistd.h>

#include "judge/worker/cuda_check.hpp"

namespace judge {

namespace {

// The driver calls this file needs, looked up once through the runtime (which loads libcuda itself).
struct Driver {
  decltype(&::cuMemCreate) create = nullptr;
  decltype(&::cuMemRelease) release = nullptr;
  decltype(&::cuMemAddressReserve) reserve = nullptr;
  decltype(&::cuMemAddressFree) address_free = nullptr;
  decltype(&::cuMemMap) map = nullptr;
  decltype(&::cuMemUnmap) unmap = nullptr;
  decltype(&::cuMemSetAccess) set_access = nullptr;
  decltype(&::cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&::cuMemExportToShareableHandle) export_handle = nullptr;
  decltype(&::cuMemImportFromShareableHandle) import_handle = nullptr;
  decltype(&::cuGetErrorName) error_name = nullptr;

  template <class F>
  static void load(F& f, const char* symbol) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status{};
    JUDGE_CUDA_CHECK(cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &status));
    if (status != cudaDriverEntryPointSuccess || !p)
      JUDGE_THROW(Error, "the CUDA driver has no {} (driver too old for shared device memory?)", symbol);
    f = reinterpret_cast<F>(p);
  }
  Driver() {
    load(create, "cuMemCreate");
    load(release, "cuMemRelease");
    load(reserve, "cuMemAddressReserve");
    load(address_free, "cuMemAddressFree");
    load(map, "cuMemMap");
    load(unmap, "cuMemUnmap");
    load(set_access, "cuMemSetAccess");
    load(granularity, "cuMemGetAllocationGranularity");
    load(export_handle, "cuMemExportToShareableHandle");
    load(import_handle, "cuMemImportFromShareableHandle");
    load(error_name, "cuGetErrorName");
  }
};

const Driver& driver() {
  static const Driver d;
  return d;
}

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  driver().error_name(r, &name);
  // Driver errors share their numbers with the runtime's for everything that matters here (out of memory, invalid
  // value, not supported), so CudaError's sticky test still applies.
  throw CudaError(static_cast<cudaError_t>(r), fmt::format("{} failed ({})", what, name ? name : "unknown error"));
}

int current_device() {
  int device = 0;
  JUDGE_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

CUmemAllocationProp properties() {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = current_device();
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return prop;
}

CUmemAccessDesc read_write(const CUmemAllocationProp& prop) {
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return access;
}

// Reserves an address range and maps the allocation read-write into it; undoes what it did if a step fails.
CUdeviceptr map_handle(CUmemGenericAllocationHandle handle, std::size_t size, const CUmemAllocationProp& prop) {
  const Driver& d = driver();
  CUdeviceptr ptr = 0;
  check(d.reserve(&ptr, size, 0, 0, 0), "cuMemAddressReserve");
  if (CUresult r = d.map(ptr, size, 0, handle, 0); r != CUDA_SUCCESS) {
    d.address_free(ptr, size);
    check(r, "cuMemMap");
  }
  const CUmemAccessDesc access = read_write(prop);
  if (CUresult r = d.set_access(ptr, size, &access, 1); r != CUDA_SUCCESS) {
    d.unmap(ptr, size);
    d.address_free(ptr, size);
    check(r, "cuMemSetAccess");
  }
  return ptr;
}

// Unmapping memory that kernels still use is undefined: wait for the device first (cudaFree does the same).
void unmap_quietly(CUdeviceptr ptr, std::size_t size) {
  JUDGE_CUDA_NOTHROW(cudaDeviceSynchronize());
  driver().unmap(ptr, size);
  driver().address_free(ptr, size);
}

}  // namespace

SharedAllocation::SharedAllocation(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  const Driver& d = driver();
  CUmemAllocationProp prop = properties();
  std::size_t granularity = 0;
  check(d.granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED), "cuMemGetAllocationGranularity");
  mapped_ = (bytes + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle handle = 0;
  check(d.create(&handle, mapped_, &prop, 0), "cuMemCreate");
  try {
    ptr_ = map_handle(handle, mapped_, prop);
  } catch (...) {
    d.release(handle);
    throw;
  }
  handle_ = handle;
}

SharedAllocation::~SharedAllocation() {
  if (!ptr_) return;
  unmap_quietly(ptr_, mapped_);
  driver().release(handle_);
}

int SharedAllocation::export_fd() const {
  int fd = -1;
  check(driver().export_handle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemExportToShareableHandle");
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  return fd;
}

MappedAllocation::MappedAllocation(int fd, std::size_t mapped_bytes) : mapped_(mapped_bytes) {
  if (mapped_bytes == 0) return;
  const Driver& d = driver();
  CUmemGenericAllocationHandle handle = 0;
  check(d.import_handle(&handle, reinterpret_cast<void*>(static_cast<std::uintptr_t>(fd)),
                        CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
        "cuMemImportFromShareableHandle");
  try {
    ptr_ = map_handle(handle, mapped_, properties());
  } catch (...) {
    d.release(handle);
    throw;
  }
  // The mapping keeps the memory alive; the handle is not needed any more.
  d.release(handle);
}

MappedAllocation::~MappedAllocation() {
  if (ptr_) unmap_quietly(ptr_, mapped_);
}

}  // namespace judge
