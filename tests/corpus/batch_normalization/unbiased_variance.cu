// expect: wrong_answer
// expect-message: NaN
// Divides the sum of squared deviations by N - 1 (the sample variance, torch.var's default) instead of N. Batch
// normalisation uses the population variance. For a batch of one (test 1x1) that is 0 / 0 = NaN; for larger batches
// every output is off by a factor sqrt((N - 1) / N), 1e-4 at N = 5,000: ten times the tolerance.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void batch_norm_kernel(const float* input, const float* gamma, const float* beta, float* output, int N,
                                  int C, float eps) {
  const int j = blockIdx.x * THREADS + threadIdx.x;
  if (j >= C) return;
  float sum = 0.0f;
  for (int i = 0; i < N; ++i) sum += input[(size_t)i * C + j];
  const float mean = sum / N;
  float squares = 0.0f;
  for (int i = 0; i < N; ++i) {
    const float d = input[(size_t)i * C + j] - mean;
    squares += d * d;
  }
  const float inv_std = 1.0f / sqrtf(squares / (N - 1) + eps);  // the mistake: N - 1
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
