// expect: accepted
// judge-command: submit
// N declared size_t, as LeetGPU's own harness passes it for vector_add, and the inputs declared without const, which
// never mattered through LeetGPU's ctypes call. Both are lossless with respect to the spec's `const float*` and
// `int`, so the judge passes its int N widened and its pointers as they are; through the benchmarks too (134M
// elements, 64-bit indexing).
#include <cuda_runtime.h>
#include <cstddef>

__global__ void vector_add(float* A, float* B, float* C, size_t N) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(float* A, float* B, float* C, size_t N) {
  vector_add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
