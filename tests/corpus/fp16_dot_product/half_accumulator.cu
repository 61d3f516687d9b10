// expect: wrong_answer
// expect-message: elements wrong
// Does all the arithmetic in half: __hmul for the products, a __hadd tree in shared memory, and atomicAdd of each
// block's half sum into the half result (zeroed first, so that is not the fault). Half keeps 11 significant bits and
// its largest value is 65,504. On positive_1000003 the atomicAdd chain of 3,907 block sums of about 6.4 stops
// growing at 16,384, where a half's rounding step is 16, against about 25,000 (35% short; the tolerance allows 5%).
// On cancel_65536 two same-signed products of 40,000 meet in the tree, overflow to inf, and inf - inf gives NaN
// where the exact answer is 0. The challenge asks for float accumulation.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dot_half(const half* A, const half* B, half* result, int N) {
  __shared__ half partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? __hmul(A[i], B[i]) : __float2half(0.0f);
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] = __hadd(partial[threadIdx.x], partial[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" void solve(const half* A, const half* B, half* result, int N) {
  cudaMemset(result, 0, sizeof(half));
  dot_half<<<(N + THREADS - 1) / THREADS, THREADS>>>(A, B, result, N);
  cudaDeviceSynchronize();
}
