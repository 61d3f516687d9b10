// expect: wrong_answer
// Treats X^T X as if it were diagonal: beta[j] = (X^T y)[j] / (X^T X)[j][j], one feature at a time, as if the
// features were uncorrelated. That is the least-squares answer only when the columns of X are orthogonal; the
// generated X has correlated columns (its noise), and at 10 x 5 the answer is off by about 20 times the tolerance
// (more at larger shapes).
#include <cuda_runtime.h>

__global__ void per_feature(const float* X, const float* y, float* beta, int n, int p) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p) return;
  float xy = 0.0f, xx = 0.0f;
  for (int i = 0; i < n; ++i) {
    const float x = X[(size_t)i * p + j];
    xy += x * y[i];
    xx += x * x;
  }
  beta[j] = xy / xx;
}

extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  per_feature<<<(n_features + 255) / 256, 256>>>(X, y, beta, n_samples, n_features);
  cudaDeviceSynchronize();
}
