// Rung 1: two kernels. The first squares one element per thread, adds the block's 256 squares with a shared-memory
// tree and adds that to a global total with one atomicAdd per block. The second kernel, which starts only after the
// first has finished, turns the total into 1 / rms and writes gamma * x * (1 / rms) + beta. The total is reset to
// zero on every call: solve() is called many times.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__device__ float g_sum_squares;

__global__ void sum_squares_kernel(const float* input, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? input[i] * input[i] : 0.0f;  // threads past the end add nothing
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&g_sum_squares, partial[0]);
}

__global__ void scale_kernel(const float* input, float gamma, float beta, float* output, int N, float eps) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) {
    const float inv_rms = 1.0f / sqrtf(g_sum_squares / N + eps);
    output[i] = gamma * input[i] * inv_rms + beta;
  }
}

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  const float zero = 0.0f;
  cudaMemcpyToSymbol(g_sum_squares, &zero, sizeof(float));
  const int blocks = (N + THREADS - 1) / THREADS;
  sum_squares_kernel<<<blocks, THREADS>>>(input, N);
  scale_kernel<<<blocks, THREADS>>>(input, gamma, beta, output, N, eps);
  cudaDeviceSynchronize();
}
