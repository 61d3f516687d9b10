// expect: wrong_answer
// expect-message: elements wrong
// One pass down each column, collecting the sum and the sum of squares in float32, then var = E[x^2] - E[x]^2. With
// the tolerance at 1e-5 this already loses digits when the mean is a few standard deviations from 0; in test
// large_mean (mean 92.5, standard deviation 4.3) E[x^2] = 8575 and E[x]^2 = 8556 agree in their first three digits,
// the float sums' rounding errors are what is left of the difference, and outputs miss the tolerance several times
// over. A second pass for the squared deviations, Welford's update, or double sums fix it.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void batch_norm_kernel(const float* input, const float* gamma, const float* beta, float* output, int N,
                                  int C, float eps) {
  const int j = blockIdx.x * THREADS + threadIdx.x;
  if (j >= C) return;
  float sum = 0.0f, sum_squares = 0.0f;
  for (int i = 0; i < N; ++i) {
    const float x = input[(size_t)i * C + j];
    sum += x;
    sum_squares += x * x;
  }
  const float mean = sum / N;
  const float variance = fmaxf(sum_squares / N - mean * mean, 0.0f);  // cancels
  const float inv_std = 1.0f / sqrtf(variance + eps);
  for (int i = 0; i < N; ++i) {
    const size_t at = (size_t)i * C + j;
    output[at] = (input[at] - mean) * inv_std * gamma[j] + beta[j];
  }
}

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
  batch_norm_kernel<<<(C + THREADS - 1) / THREADS, THREADS>>>(input, gamma, beta, output, N, C, eps);
  cudaDeviceSynchronize();
}
