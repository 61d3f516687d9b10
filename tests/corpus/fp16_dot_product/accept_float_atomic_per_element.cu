// expect: accepted
// judge-command: submit
// The simplest correct kernel: every thread adds its own product, in float, straight into one float accumulator with
// atomicAdd, and a last kernel rounds it to half. Its sum is a single running float sum in whatever order the
// atomics land, the least accurate float order there is (simulated at N = 10^8: off by up to about 5 from the exact
// sum). It is correct all the same: the 10^8 benchmark's inputs keep the result near 25,000, where that is far
// inside the tolerance (0.05 * 25,000), instead of near 0, where the absolute 0.05 alone would reject it now and then.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__device__ float total;

__global__ void clear_total() { total = 0.0f; }

__global__ void dot_atomic(const half* A, const half* B, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(&total, __half2float(A[i]) * __half2float(B[i]));
}

__global__ void store_half(half* result) { result[0] = __float2half(total); }

extern "C" void solve(const half* A, const half* B, half* result, int N) {
  clear_total<<<1, 1>>>();
  dot_atomic<<<(N + 255) / 256, 256>>>(A, B, N);
  store_half<<<1, 1>>>(result);
  cudaDeviceSynchronize();
}
