// Rung 1: one thread per element. Each block of 256 threads adds up its products in a float shared-memory tree, and
// thread 0 adds the block's total to a float accumulator with atomicAdd; a last one-thread kernel rounds it to half.
// The sum stays in float throughout (a half accumulator loses the small addends and overflows past 65,504), and the
// accumulator is zeroed before every call, since it keeps the previous call's sum.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define THREADS 256

__device__ float total;  // the float sum of this call, rounded to half at the end

__global__ void clear_total() { total = 0.0f; }

__global__ void dot_blocks(const half* A, const half* B, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? __half2float(A[i]) * __half2float(B[i]) : 0.0f;  // threads past the end add 0
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&total, partial[0]);
}

__global__ void store_half(half* result) { result[0] = __float2half(total); }

extern "C" void solve(const half* A, const half* B, half* result, int N) {
  // Kernels on one stream run in order: clear, sum, store.
  clear_total<<<1, 1>>>();
  dot_blocks<<<(N + THREADS - 1) / THREADS, THREADS>>>(A, B, N);
  store_half<<<1, 1>>>(result);
  cudaDeviceSynchronize();
}
