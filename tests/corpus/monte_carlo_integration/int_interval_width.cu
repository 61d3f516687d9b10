// expect: wrong_answer
// expect-message: elements wrong
// Keeps the interval width in an int: `int width = b - a;` truncates it toward zero. Every test whose bounds are
// whole numbers passes; fractional_bounds ([0.25, 0.5], a quarter wide) gets width 0 and returns 0 instead of 2.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void integrate_blocks(const float* y_samples, float* result, float scale, int n_samples) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < n_samples ? y_samples[i] : 0.0f;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0] * scale);
}

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
  const int width = b - a;  // the mistake: 0.25 becomes 0
  cudaMemset(result, 0, sizeof(float));
  integrate_blocks<<<(n_samples + THREADS - 1) / THREADS, THREADS>>>(y_samples, result,
                                                                      static_cast<float>(width) / n_samples, n_samples);
  cudaDeviceSynchronize();
}
