// expect: accepted
// Adds each window in a float instead of an int. Accepted, and rightly: every partial sum is an integer of magnitude at
// most 10 x 50,000 = 500,000 < 2^24, which float32 holds exactly, so the exact check must not reject it.
#include <climits>

#include <cuda_runtime.h>

#define THREADS 256

__global__ void init_output(int* output) { *output = INT_MIN; }

__global__ void window_sums(const int* input, int* output, int N, int window_size) {
  __shared__ int best[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  int sum = INT_MIN;  // threads past the last start take no part in the maximum
  if (i <= N - window_size) {
    float acc = 0.0f;
    for (int k = 0; k < window_size; ++k) acc += static_cast<float>(input[i + k]);
    sum = static_cast<int>(acc);
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
