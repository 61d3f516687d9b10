#pragma once
// A cuFFT plan that a reference keeps between calls (reference/fast_fourier_transform.cu, reference/2d_fft.cu).
//
// Making a plan is slow (it picks kernels and cudaMallocs a work area, which synchronises the device), and a
// challenge runs the same sizes over and over (every call of a benchmark), so a reference keeps its plan in a static
// CufftPlan and only makes a new one when the sizes change. It holds one plan at a time: the old one is destroyed
// before the new one is made, so at most one work area is alive per challenge, and the last plan is destroyed when
// the worker exits (before the CUDA runtime tears down: cudart registered its exit handler at its first call, which
// came before this plan's, so it runs after our destructor).
//
// Every cuFFT call is checked: a failure throws judge::Error naming the challenge and the call, as check_cuda and
// check_cublas do, so a broken reference is reported as the judge's fault and never as a wrong answer.
#include <cufft.h>

#include "judge/core/base/error.hpp"

namespace judge::ref {

inline const char* cufft_status_name(cufftResult status) {
  switch (status) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED (out of device memory)";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "an unknown cufftResult";
  }
}

inline void check_cufft(cufftResult status, const char* challenge, const char* what) {
  if (status != CUFFT_SUCCESS)
    JUDGE_THROW(Error, "reference '{}': {} failed: {} ({})", challenge, what, cufft_status_name(status),
                static_cast<int>(status));
}

// One single-precision complex-to-complex plan, 1D (rows = 1) or 2D (rows x cols, row-major: cols contiguous).
class CufftPlan {
 public:
  explicit CufftPlan(const char* challenge) : challenge_(challenge) {}
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  // Not checked: a destructor must not throw, and at exit there is no one left to tell.
  ~CufftPlan() { release(); }

  // The plan for a 1D transform of length n (rows = 0) or a 2D one of rows x cols, bound to `stream`.
  cufftHandle get(int rows, int cols, cudaStream_t stream) {
    if (!valid_ || rows != rows_ || cols != cols_) {
      release();
      // cufftCreate first, so that a failing cufftMakePlan* still leaves a handle to destroy.
      check_cufft(cufftCreate(&plan_), challenge_, "cufftCreate");
      valid_ = true;
      std::size_t work = 0;
      if (rows == 0)
        check_cufft(cufftMakePlan1d(plan_, cols, CUFFT_C2C, 1, &work), challenge_, "cufftMakePlan1d(C2C)");
      else
        check_cufft(cufftMakePlan2d(plan_, rows, cols, CUFFT_C2C, &work), challenge_, "cufftMakePlan2d(C2C)");
      rows_ = rows;
      cols_ = cols;
    }
    check_cufft(cufftSetStream(plan_, stream), challenge_, "cufftSetStream");
    return plan_;
  }

 private:
  void release() {
    if (valid_) static_cast<void>(cufftDestroy(plan_));
    valid_ = false;
    rows_ = cols_ = -1;
  }

  const char* challenge_;
  cufftHandle plan_ = 0;
  bool valid_ = false;
  int rows_ = -1, cols_ = -1;
};

}  // namespace judge::ref
