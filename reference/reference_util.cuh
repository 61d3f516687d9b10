#pragma once
// Helpers shared by the reference kernels in reference/*.cu. CMake globs only *.cu here, so this header (and every
// other header beside it: elementwise.cuh, grid_sum.cuh, rows.cuh, cublas_scope.cuh, scratch.cuh, ...) is compiled as
// part of each reference, never on its own.
//
// Every CUDA and cuBLAS call of a reference is checked: a failure throws judge::Error naming the challenge and the
// call, so a broken reference is reported as the judge's fault, never as a wrong answer of the submission.
#include <cstddef>
#include <cstdint>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "judge/core/base/error.hpp"

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

// True when every pointer is 16-byte aligned, so the arrays can be read and written as float4 or int4.
template <class... T>
__host__ __device__ inline bool aligned16(const T*... p) {
  return ((reinterpret_cast<std::uintptr_t>(p) | ...) % 16) == 0;
}

// Operators for the reductions below. Every reference spells a sum as a + b and a float maximum as fmaxf, so one
// definition of each serves them all and keeps their bits.
struct Sum {
  template <class T>
  __device__ T operator()(T a, T b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

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

// op over values[0, count) by one block of kBlock threads, each thread starting from init; the result is valid in
// thread 0. The second pass of a deterministic two-pass reduction: the same operations in the same order on every run.
template <class T, class Op>
__device__ T block_reduce_array(const T* values, int count, T init, Op op) {
  T acc = init;
  for (int i = threadIdx.x; i < count; i += kBlock) acc = op(acc, values[i]);
  return block_reduce(acc, op);
}

// Blocks for a grid-stride loop over n elements: enough to fill the GPU, never more than the loop needs.
inline unsigned grid_for(std::int64_t n, int block = kBlock, std::int64_t max_blocks = 4096) {
  std::int64_t blocks = (n + block - 1) / block;
  if (blocks < 1) blocks = 1;
  if (blocks > max_blocks) blocks = max_blocks;
  return static_cast<unsigned>(blocks);
}

// Multiprocessors of the current device (the worker uses one device per process).
inline int multiprocessors(const char* challenge) {
  int device = 0, sms = 0;
  check_cuda(cudaGetDevice(&device), challenge, "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), challenge,
             "cudaDeviceGetAttribute(MultiProcessorCount)");
  return sms;
}

// Blocks of `kernel`, launched with `block` threads and no dynamic shared memory, that are resident on the device at
// once: a grid of this size reads its input in a single wave, never waiting on a second. It asks the occupancy
// calculator, so callers keep the answer in a static.
template <class Kernel>
unsigned resident_blocks(Kernel kernel, int block, const char* challenge) {
  const int sms = multiprocessors(challenge);
  int per_sm = 0;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0), challenge,
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return static_cast<unsigned>(sms) * static_cast<unsigned>(per_sm > 0 ? per_sm : 1);
}

// kernel(args...) launched on `stream` as a cooperative kernel (its blocks may wait on one another, so the caller sizes
// `grid` to what is resident at once), with `block` threads a block and `smem` bytes of dynamic shared memory; the
// launch and its configuration are checked, `name` naming the kernel in the error.
template <class... Params, class... Args>
void launch_cooperative(const char* challenge, const char* name, void (*kernel)(Params...), unsigned grid,
                        unsigned block, std::size_t smem, cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeCooperative;
  attribute[0].val.cooperative = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  check_cuda(cudaLaunchKernelEx(&config, kernel, args...), challenge,
             (std::string("cudaLaunchKernelEx(") + name + ")").c_str());
  check_launch(challenge, name);
}

// For CPU references: C (rows x cols) = A (rows x inner) B (inner x cols), row-major, every product and sum in double.
inline void matmul_cpu(const float* A, const float* B, double* C, std::int64_t rows, std::int64_t inner,
                       std::int64_t cols) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      double acc = 0.0;
      for (std::int64_t k = 0; k < inner; ++k) acc += double(A[i * inner + k]) * double(B[k * cols + j]);
      C[i * cols + j] = acc;
    }
}

}  // namespace judge::ref
