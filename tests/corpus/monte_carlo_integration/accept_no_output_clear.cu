// expect: accepted
// LeetGPU compatibility: adds every block's share of the estimate into result with atomicAdd and never clears it,
// relying on the zero LeetGPU's harness hands over. The spec presets the output to 0 ("init" on the output), so this
// LeetGPU-accepted solution is accepted here too.
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
  // missing: cudaMemset(result, 0, sizeof(float));
  integrate_blocks<<<(n_samples + THREADS - 1) / THREADS, THREADS>>>(y_samples, result, (b - a) / n_samples,
                                                                      n_samples);
  cudaDeviceSynchronize();
}
