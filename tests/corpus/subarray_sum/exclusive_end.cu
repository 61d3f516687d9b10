// expect: wrong_answer
// expect-message: elements wrong
// Reads E as an exclusive end, as in Python's input[S:E]: the loop stops at i < E, so input[E] is never added. On n1
// (S = E = 0) it sums nothing and writes 0 instead of 7; example_5 gives 3 instead of 6.
#include <cuda_runtime.h>

#define THREADS 256

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void range_sum(const int* input, int* output, int S, int E) {
  __shared__ int warp_totals[THREADS / 32];
  int sum = 0;
  for (int i = S + blockIdx.x * THREADS + threadIdx.x; i < E; i += gridDim.x * THREADS) sum += input[i];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = warp_sum(threadIdx.x < THREADS / 32 ? warp_totals[threadIdx.x] : 0);
    if (threadIdx.x == 0) atomicAdd(output, sum);
  }
}

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
  int blocks = (E - S + THREADS) / THREADS;
  if (blocks > 1024) blocks = 1024;
  cudaMemset(output, 0, sizeof(int));
  range_sum<<<blocks, THREADS>>>(input, output, S, E);
  cudaDeviceSynchronize();
}
