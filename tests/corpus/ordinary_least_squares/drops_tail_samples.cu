// expect: wrong_answer
// Rung 1 with its sums over the samples unrolled by four and no remainder loop: the last n_samples % 4 samples never
// enter X^T X or X^T y. With 5 samples (the example) the fit uses 4 of them and lands far from the right beta; with
// 1 sample (single_1x1) X^T X is 0 and beta is NaN.
#include <cuda_runtime.h>
#include <math.h>

__global__ void gram_naive(const float* X, float* G, int n, int p) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= p || k >= p) return;
  float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
  for (int i = 0; i + 3 < n; i += 4) {  // no remainder loop: the last n % 4 samples are never added
    acc0 += X[(size_t)i * p + j] * X[(size_t)i * p + k];
    acc1 += X[(size_t)(i + 1) * p + j] * X[(size_t)(i + 1) * p + k];
    acc2 += X[(size_t)(i + 2) * p + j] * X[(size_t)(i + 2) * p + k];
    acc3 += X[(size_t)(i + 3) * p + j] * X[(size_t)(i + 3) * p + k];
  }
  const float acc = (acc0 + acc1) + (acc2 + acc3);
  G[(size_t)j * p + k] = acc;
}

__global__ void xty_naive(const float* X, const float* y, float* c, int n, int p) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p) return;
  float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
  for (int i = 0; i + 3 < n; i += 4) {
    acc0 += X[(size_t)i * p + j] * y[i];
    acc1 += X[(size_t)(i + 1) * p + j] * y[i + 1];
    acc2 += X[(size_t)(i + 2) * p + j] * y[i + 2];
    acc3 += X[(size_t)(i + 3) * p + j] * y[i + 3];
  }
  const float acc = (acc0 + acc1) + (acc2 + acc3);
  c[j] = acc;
}

// One block. G (row-major p x p) becomes L in its lower triangle; c becomes beta.
__global__ void cholesky_solve(float* G, float* c, float* beta, int p) {
  const int t = threadIdx.x, T = blockDim.x;
  for (int k = 0; k < p; ++k) {
    if (t == 0) G[(size_t)k * p + k] = sqrtf(G[(size_t)k * p + k]);
    __syncthreads();
    const float d = G[(size_t)k * p + k];
    for (int i = k + 1 + t; i < p; i += T) G[(size_t)i * p + k] /= d;
    __syncthreads();
    for (int i = k + 1; i < p; ++i) {
      const float lik = G[(size_t)i * p + k];
      for (int j = k + 1 + t; j <= i; j += T) G[(size_t)i * p + j] -= lik * G[(size_t)j * p + k];
    }
    __syncthreads();
  }
  // L z = c (column by column: z_k final, then removed from the rows below).
  for (int k = 0; k < p; ++k) {
    if (t == 0) c[k] /= G[(size_t)k * p + k];
    __syncthreads();
    const float zk = c[k];
    for (int i = k + 1 + t; i < p; i += T) c[i] -= G[(size_t)i * p + k] * zk;
    __syncthreads();
  }
  // L^T beta = z (L^T's column k is L's row k).
  for (int k = p - 1; k >= 0; --k) {
    if (t == 0) c[k] /= G[(size_t)k * p + k];
    __syncthreads();
    const float bk = c[k];
    for (int i = t; i < k; i += T) c[i] -= G[(size_t)k * p + i] * bk;
    __syncthreads();
  }
  for (int i = t; i < p; i += T) beta[i] = c[i];
}

// X, y, beta are device pointers
extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  const int n = n_samples, p = n_features;
  float *G = nullptr, *c = nullptr;
  cudaMalloc(&G, (size_t)p * p * sizeof(float));
  cudaMalloc(&c, (size_t)p * sizeof(float));
  const dim3 block(16, 16), grid((p + 15) / 16, (p + 15) / 16);
  gram_naive<<<grid, block>>>(X, G, n, p);
  xty_naive<<<(p + 255) / 256, 256>>>(X, y, c, n, p);
  cholesky_solve<<<1, 256>>>(G, c, beta, p);
  cudaDeviceSynchronize();
  cudaFree(G);
  cudaFree(c);
}
