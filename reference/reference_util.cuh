#pragma once
// Helpers shared by the reference kernels in reference/*.cu. CMake globs only *.cu here, so this header is compiled
// as part of each reference, never on its own.
//
// Every CUDA and cuBLAS call of a reference is checked: a failure throws judge::Error naming the challenge and the
// call, so a broken reference is reported as the judge's fault, never as a wrong answer of the submission.
#include <cstdint>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "judge/core/error.hpp"

namespace judge::ref {

inline void check_cuda(cudaError_t code, const char* challenge, const char* what) {
  if (code != cudaSuccess)
    JUDGE_THROW(Error, "reference '{}': {} failed: {} ({})", challenge, what, cudaGetErrorName(code),
                cudaGetErrorString(code));
}

// After a kernel launch: catches bad launch configurations (and earlier asynchronous errors) at the launch site.
inline void check_launch(const char* challenge, const char* kernel) {
  check_cuda(cudaGetLastError(), challenge, kernel);
}

inline void check_cublas(cublasStatus_t status, const char* challenge, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    JUDGE_THROW(Error, "reference '{}': {} failed: {}", challenge, what, cublasGetStatusString(status));
}

constexpr int kBlock = 256;

// op over the values of a block of kBlock threads; the result is valid in thread 0. Every thread must call it (it
// holds barriers). A tree in shared memory, in a fixed order, so references give the same bits on every run.
template <class T, class Op>
__device__ T block_reduce(T v, Op op) {
  __shared__ T sh[kBlock];
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] = op(sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  return sh[0];
}

// Blocks for a grid-stride loop over n elements: enough to fill the GPU, never more than the loop needs.
inline unsigned grid_for(std::int64_t n, int block = kBlock, std::int64_t max_blocks = 4096) {
  std::int64_t blocks = (n + block - 1) / block;
  if (blocks < 1) blocks = 1;
  if (blocks > max_blocks) blocks = max_blocks;
  return static_cast<unsigned>(blocks);
}

}  // namespace judge::ref
