#pragma once
// The worker hands every reference one shared cuBLAS handle. A reference that calls cuBLAS sets the stream and math
// mode it needs (and host pointer mode: its alpha and beta are host floats) through a CublasScope, which puts back
// what it found however the call ends, so no reference inherits another's settings.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "reference/reference_util.cuh"

namespace judge::ref {

class CublasScope {
 public:
  CublasScope(cublasHandle_t handle, cudaStream_t stream, cublasMath_t math, const char* challenge)
      : saved_(handle, challenge) {
    check_cublas(cublasSetStream(handle, stream), challenge, "cublasSetStream");
    check_cublas(cublasSetMathMode(handle, math), challenge, "cublasSetMathMode");
    check_cublas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST), challenge, "cublasSetPointerMode");
  }
  CublasScope(const CublasScope&) = delete;
  CublasScope& operator=(const CublasScope&) = delete;

  cublasHandle_t handle() const { return saved_.handle; }

 private:
  // A member, not the body of ~CublasScope, so that the settings are restored even when a setter in the constructor
  // throws (a destructor runs only for a completely constructed object; a constructed member is always destroyed).
  struct Saved {
    Saved(cublasHandle_t h, const char* challenge) : handle(h) {
      check_cublas(cublasGetMathMode(handle, &math), challenge, "cublasGetMathMode");
      check_cublas(cublasGetStream(handle, &stream), challenge, "cublasGetStream");
      check_cublas(cublasGetPointerMode(handle, &pointer_mode), challenge, "cublasGetPointerMode");
    }
    // Not checked: a destructor must not throw. The values were read from this handle, so the setters can only fail
    // if the handle itself is gone, and the next checked call on it reports that.
    ~Saved() {
      static_cast<void>(cublasSetMathMode(handle, math));
      static_cast<void>(cublasSetStream(handle, stream));
      static_cast<void>(cublasSetPointerMode(handle, pointer_mode));
    }
    Saved(const Saved&) = delete;
    Saved& operator=(const Saved&) = delete;

    cublasHandle_t handle;
    cublasMath_t math = CUBLAS_DEFAULT_MATH;
    cudaStream_t stream = nullptr;
    cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  };
  Saved saved_;
};

}  // namespace judge::ref
