#include <cuda_runtime.h>

// Newton's method (IRLS) from beta = 0: each step needs p = sigmoid(X beta), the gradient X^T (p - y) + 1e-6 beta and
// the Hessian X^T diag(p (1 - p)) X + 1e-6 I, then solves Hessian * delta = gradient and sets beta -= delta.
// The sums over samples are reductions; the n_features x n_features solve is small.
__global__ void residual_kernel(const float* X, const float* y, const float* beta, float* r, float* w,
                                int n_samples, int n_features) {
  // TODO: r[i] = sigmoid(X[i, :] . beta) - y[i], w[i] = p (1 - p)
}

// X, y, beta are device pointers
extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  // TODO: allocate r, w, gradient and Hessian, iterate Newton steps until they stop changing beta
}
