// expect: wrong_answer
// expect-message: NaN
// Divides by sqrt(mean(x^2)) and leaves eps out. Where the inputs are not all zero the difference is below the
// tolerance, but on test zeros the mean of squares is 0 and every output is gamma * 0 / 0 + beta = NaN, where the
// reference gives beta. eps is there exactly to keep the denominator away from 0.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void sum_squares_kernel(const float* input, int N, float* sum_squares) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? input[i] * input[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum_squares, partial[0]);
}

__global__ void scale_kernel(const float* input, float gamma, float beta, float* output, int N,
                             const float* sum_squares) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) output[i] = gamma * input[i] / sqrtf(*sum_squares / N) + beta;  // the mistake: no + eps
}

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  float* sum_squares = nullptr;
  cudaMalloc(&sum_squares, sizeof(float));
  cudaMemset(sum_squares, 0, sizeof(float));
  const int blocks = (N + THREADS - 1) / THREADS;
  sum_squares_kernel<<<blocks, THREADS>>>(input, N, sum_squares);
  scale_kernel<<<blocks, THREADS>>>(input, gamma, beta, output, N, sum_squares);
  cudaDeviceSynchronize();
  cudaFree(sum_squares);
}
