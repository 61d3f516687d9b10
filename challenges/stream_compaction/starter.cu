#include <cuda_runtime.h>

// out[0..k) = the k elements of A with A[i] > 0, in their order in A; out[k..N) = 0.0. Each kept element's place
// depends on how many elements before it are kept, so you will likely need a prefix sum (scan) of the keep flags, and
// more than one kernel (or a single-pass scan whose blocks pass their counts along).
__global__ void compact_kernel(const float* A, int N, float* out) {
  // TODO
}

// A and out point to GPU memory. solve() must leave the finished result in out.
extern "C" void solve(const float* A, int N, float* out) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  compact_kernel<<<blocks, threads_per_block>>>(A, N, out);
  cudaDeviceSynchronize();
}
