// expect: wrong_answer
// expect-message: elements wrong
// Normalises each row (sample) over its C features, i.e. layer normalisation, instead of each column (feature) over
// the N samples of the batch. The shapes and the formula look the same; only the axis differs. Test example_4x3 (and
// every later test with more than one row) has different row and column statistics, so the outputs are wrong; 1x1 is
// the only case where the two agree.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void row_norm_kernel(const float* input, const float* gamma, const float* beta, float* output, int N,
                                int C, float eps) {
  const int i = blockIdx.x * THREADS + threadIdx.x;  // the mistake: one thread per row
  if (i >= N) return;
  const float* x = input + (size_t)i * C;
  float sum = 0.0f;
  for (int j = 0; j < C; ++j) sum += x[j];
  const float mean = sum / C;
  float squares = 0.0f;
  for (int j = 0; j < C; ++j) squares += (x[j] - mean) * (x[j] - mean);
  const float inv_std = 1.0f / sqrtf(squares / C + eps);
  for (int j = 0; j < C; ++j) output[(size_t)i * C + j] = (x[j] - mean) * inv_std * gamma[j] + beta[j];
}

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
  row_norm_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, gamma, beta, output, N, C, eps);
  cudaDeviceSynchronize();
}
