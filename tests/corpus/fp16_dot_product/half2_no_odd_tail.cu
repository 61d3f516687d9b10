// expect: wrong_answer
// expect-message: elements wrong
// Reads both vectors as half2 pairs and sums in float, correctly, but covers only the N / 2 whole pairs: when N is
// odd the last product is never added. On random inputs one missing product can hide inside the tolerance, but n1
// (the only element: result 0 instead of -3), example_5 and tail1_4097 (2 becomes 1) fail every time.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define THREADS 256

__device__ float total;

__global__ void clear_total() { total = 0.0f; }

__global__ void dot_pairs(const half2* A, const half2* B, int pairs) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float v = 0.0f;
  if (i < pairs) {
    const float2 a = __half22float2(A[i]), b = __half22float2(B[i]);
    v = a.x * b.x + a.y * b.y;
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&total, partial[0]);
}

__global__ void store_half(half* result) { result[0] = __float2half(total); }

extern "C" void solve(const half* A, const half* B, half* result, int N) {
  const int pairs = N / 2;  // the mistake: element N - 1 is never read when N is odd
  clear_total<<<1, 1>>>();
  if (pairs > 0)
    dot_pairs<<<(pairs + THREADS - 1) / THREADS, THREADS>>>(reinterpret_cast<const half2*>(A),
                                                            reinterpret_cast<const half2*>(B), pairs);
  store_half<<<1, 1>>>(result);
  cudaDeviceSynchronize();
}
