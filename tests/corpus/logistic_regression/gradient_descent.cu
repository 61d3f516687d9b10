// expect: wrong_answer
// Plain gradient descent on the regularised log-likelihood (2000 steps of size 0.1 / n_samples), the first thing one
// tries. Where the optimum is large it is far from reached: on 1x1 (the optimum 6.3316) beta creeps up like
// log(steps) / 2 and ends near 3.3.
#include <cuda_runtime.h>

__global__ void residual(const float* X, const float* y, const float* beta, float* r, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float z = 0.f;
  for (int k = 0; k < d; ++k) z += X[(long long)i * d + k] * beta[k];
  r[i] = 1.f / (1.f + expf(-z)) - y[i];
}

// beta[j] -= lr * (sum_i X[i, j] r[i] + 1e-6 beta[j]); one thread per feature.
__global__ void gd_update(const float* X, const float* r, float* beta, int n, int d, float lr) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= d) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += X[(long long)i * d + j] * r[i];
  beta[j] -= lr * (s + 1e-6f * beta[j]);
}

// X, y, beta are device pointers
extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  float* r;
  cudaMalloc(&r, sizeof(float) * n_samples);
  cudaMemset(beta, 0, sizeof(float) * n_features);
  for (int it = 0; it < 2000; ++it) {
    residual<<<(n_samples + 255) / 256, 256>>>(X, y, beta, r, n_samples, n_features);
    gd_update<<<(n_features + 127) / 128, 128>>>(X, r, beta, n_samples, n_features, 0.1f / n_samples);
  }
  cudaDeviceSynchronize();
  cudaFree(r);
}
