// expect: wrong_answer
// expect-message: NaN
// exp(x) / sum exp(x) per row without subtracting the row's maximum. Correct in exact arithmetic, and within the
// tolerance for the small inputs of the first tests, but in test row_scales the second row holds values up to 100:
// expf(100) overflows to inf and the row becomes inf / inf = NaN (and rows near -1000 underflow to 0 / 0).
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void softmax_rows_kernel(const float* input, float* output, int N) {
  __shared__ float shared[THREADS];
  const float* x = input + (size_t)blockIdx.x * N;
  float* y = output + (size_t)blockIdx.x * N;
  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) sum += expf(x[j]);  // the mistake: no - max
  shared[threadIdx.x] = sum;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  const float total = shared[0];
  for (int j = threadIdx.x; j < N; j += THREADS) y[j] = expf(x[j]) / total;
}

extern "C" void solve(const float* input, float* output, int M, int N) {
  softmax_rows_kernel<<<M, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
