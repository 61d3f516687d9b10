// expect: wrong_answer
// expect-message: elements wrong
// Off by one in the starts: tries i < N - window_size, so the last window (starting at N - window_size, ending at
// input[N - 1]) is never summed. With window_size == N no window is left and the output stays INT_MIN: n1_w1 fails
// first; example_negative_4 gives -7 instead of -5, last_window_only_37 -5 instead of 6.
#include <climits>

#include <cuda_runtime.h>

#define THREADS 256

__global__ void init_output(int* output) { *output = INT_MIN; }

__global__ void window_sums(const int* input, int* output, int N, int window_size) {
  __shared__ int best[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  int sum = INT_MIN;  // threads past the last start take no part in the maximum
  if (i < N - window_size) {  // wrong: the last start is N - window_size itself
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
  init_output<<<1, 1>>>(output);
  window_sums<<<(windows + THREADS - 1) / THREADS, THREADS>>>(input, output, N, window_size);
  cudaDeviceSynchronize();
}
