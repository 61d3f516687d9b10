// expect: runtime_error
// expect-message: CUDA error
// Asks for 1 TiB of scratch and never checks the result: cudaMalloc fails (cudaErrorMemoryAllocation) and leaves
// the pointer null, and the kernel then stores through it, which faults (cudaErrorIllegalAddress, a sticky error).
// Either error is the submission's: `runtime_error`, whose message names the CUDA error that surfaced first.
#include <cuda_runtime.h>

__global__ void add_via_scratch(const float* A, const float* B, float* scratch, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    scratch[i] = A[i] + B[i];
    C[i] = scratch[i];
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  float* scratch = nullptr;
  cudaMalloc(&scratch, size_t(1) << 40);  // result ignored
  add_via_scratch<<<(N + 255) / 256, 256>>>(A, B, scratch, C, N);
  cudaDeviceSynchronize();
}
