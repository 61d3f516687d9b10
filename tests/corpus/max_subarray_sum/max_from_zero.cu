// expect: wrong_answer
// expect-message: elements wrong
// Starts the maximum at 0 (cudaMemset of the output, then atomicMax), as if an empty window were allowed. Every test
// with a positive answer passes, but when every window sum is negative the output stays 0: n1_w1 ([-7]) gives 0
// instead of -7, example_negative_4 0 instead of -5, all_minus_ten_1000 0 instead of -5000.
#include <climits>

#include <cuda_runtime.h>

#define THREADS 256

__global__ void window_sums(const int* input, int* output, int N, int window_size) {
  __shared__ int best[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  int sum = INT_MIN;  // threads past the last start take no part in the maximum
  if (i <= N - window_size) {
    sum = 0;
    for (int k = 0; k < window_size; ++k) sum += input[i + k];
  }
  best[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) best[threadIdx.x] = max(best[threadIdx.x], best[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicMax(output, best[0]);
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const int* input, int* output, int N, int window_size) {
  const int windows = N - window_size + 1;
  cudaMemset(output, 0, sizeof(int));  // wrong: the answer can be negative
  window_sums<<<(windows + THREADS - 1) / THREADS, THREADS>>>(input, output, N, window_size);
  cudaDeviceSynchronize();
}
