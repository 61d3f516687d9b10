#pragma once
// RAII owners of the CUDA and cuBLAS handles the worker creates: a non-blocking stream, an event, a cuBLAS handle.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "judge/worker/cuda_check.hpp"

namespace judge {

inline void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    JUDGE_THROW(Error, "{} failed: {} ({})", call, cublasGetStatusName(status), cublasGetStatusString(status));
}

// A stream that does not synchronise with the legacy default stream: the judge's work never waits for, or
// orders, the submission's.
class Stream {
 public:
  Stream() { JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { JUDGE_CUDA_NOTHROW(cudaStreamDestroy(s_)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() { JUDGE_CUDA_CHECK(cudaEventCreate(&e_)); }
  ~Event() { JUDGE_CUDA_NOTHROW(cudaEventDestroy(e_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

class CublasHandle {
 public:
  CublasHandle() { check_cublas(cublasCreate(&h_), "cublasCreate"); }
  ~CublasHandle() { static_cast<void>(cublasDestroy(h_)); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return h_; }

 private:
  cublasHandle_t h_ = nullptr;
};

}  // namespace judge
