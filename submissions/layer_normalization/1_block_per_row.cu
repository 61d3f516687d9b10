// Rung 1: one block of 256 threads per row, three sweeps over the row in global memory: the mean (a shared-memory
// tree), then the sum of squared deviations from that mean (the two-pass variance: E[x^2] - E[x]^2 would cancel when
// the mean is large next to the spread), then the output. Every loop strides by the block size and stops at C.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256  // a power of two, for the tree

// Sum of v over the block; every thread gets the result. Every thread must call it (it holds barriers).
__device__ float block_sum(float v, float* shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  const float total = shared[0];
  __syncthreads();  // everyone has read shared[0] before the next call overwrites it
  return total;
}

__global__ void layer_norm_kernel(const float* input, const float* weight, const float* bias, float* output, int C,
                                  float eps) {
  __shared__ float shared[THREADS];
  const float* x = input + (size_t)blockIdx.x * C;
  float* y = output + (size_t)blockIdx.x * C;

  float sum = 0.0f;
  for (int j = threadIdx.x; j < C; j += THREADS) sum += x[j];
  const float mean = block_sum(sum, shared) / C;

  float squares = 0.0f;
  for (int j = threadIdx.x; j < C; j += THREADS) {
    const float d = x[j] - mean;
    squares += d * d;
  }
  const float inv_std = 1.0f / sqrtf(block_sum(squares, shared) / C + eps);

  for (int j = threadIdx.x; j < C; j += THREADS) y[j] = (x[j] - mean) * inv_std * weight[j] + bias[j];
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int N, int C,
                      float eps) {
  layer_norm_kernel<<<N, THREADS>>>(input, weight, bias, output, C, eps);
  cudaDeviceSynchronize();
}
