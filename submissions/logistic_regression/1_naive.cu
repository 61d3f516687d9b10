// Rung 1: Newton's method in float32 with one thread per output, every step a few plain kernels and a host check.
// A thread per sample computes r = sigmoid(X beta) - y and w = p (1 - p); a thread per Hessian entry (j, k) sums
// X[i, j] w[i] X[i, k] over the samples (and the column j = k also sums the gradient); one thread solves the system
// by Gaussian elimination. Steps stop when they no longer move beta (float32 noise keeps them from reaching zero on
// separable data, so at most 100).
#include <cuda_runtime.h>
#include <math.h>

#define LAMBDA 1e-6f

__global__ void residual(const float* X, const float* y, const float* beta, float* r, float* w, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float z = 0.f;
  for (int j = 0; j < d; ++j) z += X[(long long)i * d + j] * beta[j];
  float p = 1.f / (1.f + expf(-z));
  r[i] = p - y[i];
  w[i] = fmaxf(p * (1.f - p), 1e-8f);
}

__global__ void hessian(const float* X, const float* r, const float* w, const float* beta, float* H, float* g, int n,
                        int d) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= d * d) return;
  int j = t / d, k = t % d;
  float h = 0.f, gr = 0.f;
  for (int i = 0; i < n; ++i) {
    float xj = X[(long long)i * d + j];
    h += xj * w[i] * X[(long long)i * d + k];
    if (j == k) gr += xj * r[i];
  }
  H[t] = h + (j == k ? LAMBDA : 0.f);
  if (j == k) g[j] = gr + LAMBDA * beta[j];
}

// One thread: Gaussian elimination with partial pivoting on H delta = g, then beta -= delta; *step = |delta|^2.
__global__ void newton_solve(float* H, float* g, float* beta, float* step, int d) {
  for (int c = 0; c < d; ++c) {
    int pv = c;
    for (int q = c + 1; q < d; ++q)
      if (fabsf(H[q * d + c]) > fabsf(H[pv * d + c])) pv = q;
    for (int k = 0; k < d; ++k) {
      float tmp = H[c * d + k]; H[c * d + k] = H[pv * d + k]; H[pv * d + k] = tmp;
    }
    float tmp = g[c]; g[c] = g[pv]; g[pv] = tmp;
    for (int q = c + 1; q < d; ++q) {
      float f = H[q * d + c] / H[c * d + c];
      for (int k = c; k < d; ++k) H[q * d + k] -= f * H[c * d + k];
      g[q] -= f * g[c];
    }
  }
  float s = 0.f;
  for (int c = d - 1; c >= 0; --c) {
    float v = g[c];
    for (int k = c + 1; k < d; ++k) v -= H[c * d + k] * g[k];
    g[c] = v / H[c * d + c];
    beta[c] -= g[c];
    s += g[c] * g[c];
  }
  *step = s;
}

// X, y, beta are device pointers
extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  int n = n_samples, d = n_features;
  float *r, *w, *H, *g, *step;
  cudaMalloc(&r, sizeof(float) * n);
  cudaMalloc(&w, sizeof(float) * n);
  cudaMalloc(&H, sizeof(float) * d * d);
  cudaMalloc(&g, sizeof(float) * d);
  cudaMalloc(&step, sizeof(float));
  cudaMemset(beta, 0, sizeof(float) * d);
  float* hb = new float[d];
  for (int it = 0; it < 100; ++it) {
    residual<<<(n + 255) / 256, 256>>>(X, y, beta, r, w, n, d);
    hessian<<<(d * d + 255) / 256, 256>>>(X, r, w, beta, H, g, n, d);
    newton_solve<<<1, 1>>>(H, g, beta, step, d);
    float s;
    cudaMemcpy(&s, step, sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, beta, sizeof(float) * d, cudaMemcpyDeviceToHost);
    float nb = 0.f;
    for (int j = 0; j < d; ++j) nb += hb[j] * hb[j];
    if (sqrtf(s) <= 1e-5f * (1.f + sqrtf(nb))) break;
  }
  delete[] hb;
  cudaFree(r); cudaFree(w); cudaFree(H); cudaFree(g); cudaFree(step);
}
