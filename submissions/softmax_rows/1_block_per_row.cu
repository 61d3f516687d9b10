// Rung 1: one block of 256 threads per row and three sweeps over the row in global memory: the row's maximum, the
// sum of exp(x - max), then output = exp(x - max) / sum. Each sweep strides by the block size and stops at N, and the
// two reductions are shared-memory trees, so any row length works, from 1 to a million.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256  // a power of two, for the trees

__global__ void softmax_rows_kernel(const float* input, float* output, int N) {
  __shared__ float shared[THREADS];
  const float* x = input + (size_t)blockIdx.x * N;
  float* y = output + (size_t)blockIdx.x * N;

  float m = -INFINITY;  // not 0: a row of negative values has a negative maximum
  for (int j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, x[j]);
  shared[threadIdx.x] = m;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) shared[threadIdx.x] = fmaxf(shared[threadIdx.x], shared[threadIdx.x + s]);
    __syncthreads();
  }
  m = shared[0];
  __syncthreads();  // everyone has read the maximum before shared[] is reused

  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) sum += expf(x[j] - m);
  shared[threadIdx.x] = sum;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  const float inv_sum = 1.0f / shared[0];

  for (int j = threadIdx.x; j < N; j += THREADS) y[j] = expf(x[j] - m) * inv_sum;
}

extern "C" void solve(const float* input, float* output, int M, int N) {
  softmax_rows_kernel<<<M, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
