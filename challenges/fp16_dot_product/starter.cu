#include <cuda_fp16.h>
#include <cuda_runtime.h>

// result[0] = A[0] * B[0] + A[1] * B[1] + ... + A[N-1] * B[N-1], summed in float and rounded to half once at the
// end. Every block can compute the float sum of its own products; those partial sums then have to be combined into
// the one output value.
__global__ void dot_product_kernel(const half* A, const half* B, half* result, int N) {
  // TODO
}

// A, B and result point to GPU memory. solve() must leave the finished sum in result[0].
extern "C" void solve(const half* A, const half* B, half* result, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  dot_product_kernel<<<blocks, threads_per_block>>>(A, B, result, N);
  cudaDeviceSynchronize();
}
