#include <cuda_runtime.h>

// X is n_samples x n_features, row-major: sample i, feature j is X[i * n_features + j].
// Step 1: G = X^T X (n_features x n_features) and c = X^T y (n_features), e.g. one thread per entry.
__global__ void normal_equations_kernel(const float* X, const float* y, float* G, float* c, int n_samples,
                                        int n_features) {
  // TODO: G[j * n_features + k] = sum over i of X[i][j] * X[i][k];  c[j] = sum over i of X[i][j] * y[i]
}

// Step 2: solve G beta = c. G is symmetric positive definite: Cholesky (G = L L^T), then L z = c and L^T beta = z.
__global__ void solve_kernel(float* G, float* c, float* beta, int n_features) {
  // TODO
}

// X, y, beta are device pointers. solve() must leave the coefficients in beta.
extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  float *G = nullptr, *c = nullptr;
  cudaMalloc(&G, (size_t)n_features * n_features * sizeof(float));
  cudaMalloc(&c, (size_t)n_features * sizeof(float));
  // TODO: launch the two kernels.
  cudaDeviceSynchronize();
  cudaFree(G);
  cudaFree(c);
}
