// expect: wrong_answer
// expect-message: elements wrong
// Off by one in the window: adds input[i] .. input[i + window_size], window_size + 1 elements (`k <= window_size`),
// and the last window reads one element past the end of input (the judge's guard region). n1_w1 adds that stray int
// to -7; example_5 gets at least 9 (4 + 2 + 3) instead of 6.
#include <climits>

#include <cuda_runtime.h>

#define THREADS 256

__global__ void init_output(int* output) { *output = INT_MIN; }

__global__ void window_sums(const int* input, int* output, int N, int window_size) {
  __shared__ int best[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  int sum = INT_MIN;  // threads past the last start take no part in the maximum
  if (i <= N - window_size) {
    sum = 0;
    for (int k = 0; k <= window_size; ++k) sum += input[i + k];  // wrong: one element too many
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
  init_output<<<1, 1>>>(output);
  window_sums<<<(windows + THREADS - 1) / THREADS, THREADS>>>(input, output, N, window_size);
  cudaDeviceSynchronize();
}
