// expect: wrong_answer
// exp(x) without subtracting the maximum first: overflows to Inf (then NaN) on large inputs.
#include <cuda_runtime.h>
__global__ void sum_exp(const float* x, float* sum, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(sum, expf(x[i]));
}
__global__ void normalize(const float* x, float* y, const float* sum, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = expf(x[i]) / *sum;
}
extern "C" void solve(const float* input, float* output, int N) {
  float* sum = nullptr;
  cudaMalloc(&sum, sizeof(float));
  cudaMemset(sum, 0, sizeof(float));
  sum_exp<<<(N + 255) / 256, 256>>>(input, sum, N);
  normalize<<<(N + 255) / 256, 256>>>(input, output, sum, N);
  cudaDeviceSynchronize();
  cudaFree(sum);
}
