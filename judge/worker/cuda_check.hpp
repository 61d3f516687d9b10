#pragma once
// Every CUDA call in the worker is checked. CudaError carries the error code so the runner can tell a sticky error
// (the context is dead: report and exit) from a recoverable one.
#include <cuda_runtime.h>

#include <string>

#include "judge/core/base/error.hpp"

namespace judge {

class CudaError : public Error {
 public:
  CudaError(cudaError_t code, const std::string& what_failed)
      : Error(fmt::format("{}: {} ({})", what_failed, cudaGetErrorName(code), cudaGetErrorString(code))),
        code_(code) {}
  cudaError_t code() const { return code_; }
  // Errors after which the CUDA context cannot be used again: the process must end.
  bool sticky() const { return is_sticky(code_); }
  static bool is_sticky(cudaError_t code) {
    switch (code) {
      case cudaErrorIllegalAddress:
      case cudaErrorLaunchFailure:
      case cudaErrorLaunchTimeout:
      case cudaErrorHardwareStackError:
      case cudaErrorIllegalInstruction:
      case cudaErrorMisalignedAddress:
      case cudaErrorInvalidAddressSpace:
      case cudaErrorInvalidPc:
      case cudaErrorAssert:
      case cudaErrorECCUncorrectable:
      case cudaErrorContextIsDestroyed:
      case cudaErrorDevicesUnavailable:
      case cudaErrorUnknown:
        return true;
      default:
        return false;
    }
  }

 private:
  cudaError_t code_;
};

inline void cuda_check(cudaError_t code, const char* expr, const char* file, int line) {
  if (code != cudaSuccess) throw CudaError(code, fmt::format("{} failed at {}:{}", expr, file, line));
}

#define JUDGE_CUDA_CHECK(expr) ::judge::cuda_check((expr), #expr, __FILE__, __LINE__)
// For destructors: never throws; the error is left for the next checked call to surface.
#define JUDGE_CUDA_NOTHROW(expr) static_cast<void>(expr)

}  // namespace judge
