// expect: wrong_answer
// Rung 1 with X indexed as if it were stored column-major (sample i, feature j at X[j * n_samples + i]), the layout of
// Fortran and of cuBLAS's default view. For 1 x 1 and 5 x 1 the two layouts coincide; the example (5 x 3) already
// fits the wrong matrix.
#include <cuda_runtime.h>
#include <math.h>

__global__ void gram_naive(const float* X, float* G, int n, int p) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= p || k >= p) return;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) acc += X[(size_t)j * n + i] * X[(size_t)k * n + i];  // column-major: wrong
  G[(size_t)j * p + k] = acc;
}

__global__ void xty_naive(const float* X, const float* y, float* c, int n, int p) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p) return;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) acc += X[(size_t)j * n + i] * y[i];  // column-major: wrong
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
