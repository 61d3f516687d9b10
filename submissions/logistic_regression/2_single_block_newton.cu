// Rung 2: the whole Newton solve in one launch of one block when the problem is small (LeetGPU's 16 x 8 case): the
// residuals, the Hessian's lower triangle and gradient, the Cholesky factorisation, both triangular solves and the
// convergence test all run inside one kernel separated by __syncthreads, so a call costs one launch and one copy
// instead of three launches and two host round trips per step. Large problems keep rung 1's kernels, where the
// O(n d^2) Hessian needs the whole GPU. Scratch memory is allocated once and kept.
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


#define FUSED_THREADS 512

// The step loop of one block; r, w (n) and H (d x d), g (d) are scratch in global memory.
__global__ void __launch_bounds__(FUSED_THREADS) fused_newton(const float* X, const float* y, float* beta, float* r,
                                                             float* w, float* H, float* g, int n, int d) {
  __shared__ float red[FUSED_THREADS];
  __shared__ int done;
  const int tid = threadIdx.x;
  for (int j = tid; j < d; j += FUSED_THREADS) beta[j] = 0.f;
  __syncthreads();
  const int tri = d * (d + 1) / 2;
  for (int it = 0; it < 100; ++it) {
    for (int i = tid; i < n; i += FUSED_THREADS) {
      float z = 0.f;
      for (int j = 0; j < d; ++j) z += X[(long long)i * d + j] * beta[j];
      float p = 1.f / (1.f + expf(-z));
      r[i] = p - y[i];
      w[i] = fmaxf(p * (1.f - p), 1e-8f);
    }
    __syncthreads();
    for (int t = tid; t < tri + d; t += FUSED_THREADS) {
      if (t < tri) {
        int j = (int)((sqrtf(8.f * t + 1.f) - 1.f) * 0.5f);
        while (j * (j + 1) / 2 > t) --j;
        while ((j + 1) * (j + 2) / 2 <= t) ++j;
        int k = t - j * (j + 1) / 2;
        float h = 0.f;
        for (int i = 0; i < n; ++i) h += X[(long long)i * d + j] * w[i] * X[(long long)i * d + k];
        H[j * d + k] = h + (j == k ? LAMBDA : 0.f);
      } else {
        int j = t - tri;
        float s = 0.f;
        for (int i = 0; i < n; ++i) s += X[(long long)i * d + j] * r[i];
        g[j] = s + LAMBDA * beta[j];
      }
    }
    __syncthreads();
    // Cholesky: H = L L^T in the lower triangle.
    for (int k = 0; k < d; ++k) {
      if (tid == 0) H[k * d + k] = sqrtf(H[k * d + k]);
      __syncthreads();
      float piv = H[k * d + k];
      for (int i = k + 1 + tid; i < d; i += FUSED_THREADS) H[i * d + k] /= piv;
      __syncthreads();
      int m = d - k - 1;
      for (int t = tid; t < m * m; t += FUSED_THREADS) {
        int i = k + 1 + t / m, j = k + 1 + t % m;
        if (j <= i) H[i * d + j] -= H[i * d + k] * H[j * d + k];
      }
      __syncthreads();
    }
    for (int k = 0; k < d; ++k) {
      if (tid == 0) g[k] /= H[k * d + k];
      __syncthreads();
      for (int i = k + 1 + tid; i < d; i += FUSED_THREADS) g[i] -= H[i * d + k] * g[k];
      __syncthreads();
    }
    for (int k = d - 1; k >= 0; --k) {
      if (tid == 0) g[k] /= H[k * d + k];
      __syncthreads();
      for (int i = tid; i < k; i += FUSED_THREADS) g[i] -= H[k * d + i] * g[k];
      __syncthreads();
    }
    float s = 0.f, b2 = 0.f;
    for (int j = tid; j < d; j += FUSED_THREADS) {
      float nb = beta[j] - g[j];
      beta[j] = nb;
      s += g[j] * g[j];
      b2 += nb * nb;
    }
    red[tid] = s;
    __syncthreads();
    for (int o = FUSED_THREADS / 2; o > 0; o >>= 1) {
      if (tid < o) red[tid] += red[tid + o];
      __syncthreads();
    }
    float step = red[0];
    __syncthreads();
    red[tid] = b2;
    __syncthreads();
    for (int o = FUSED_THREADS / 2; o > 0; o >>= 1) {
      if (tid < o) red[tid] += red[tid + o];
      __syncthreads();
    }
    if (tid == 0) done = sqrtf(step) <= 1e-5f * (1.f + sqrtf(red[0]));
    __syncthreads();
    if (done) break;
    __syncthreads();
  }
}

static float* scratch = nullptr;
static size_t scratch_floats = 0;

static float* get_scratch(size_t floats) {
  if (floats > scratch_floats) {
    if (scratch) cudaFree(scratch);
    cudaMalloc(&scratch, floats * sizeof(float));
    scratch_floats = floats;
  }
  return scratch;
}

// X, y, beta are device pointers
extern "C" void solve(const float* X, const float* y, float* beta, int n_samples, int n_features) {
  int n = n_samples, d = n_features;
  float* r = get_scratch(2 * (size_t)n + (size_t)d * d + d + 1);
  float* w = r + n;
  float* H = w + n;
  float* g = H + (size_t)d * d;
  float* step = g + d;
  if ((long long)n * d * d <= (1LL << 20)) {
    fused_newton<<<1, FUSED_THREADS>>>(X, y, beta, r, w, H, g, n, d);
    cudaDeviceSynchronize();
    return;
  }
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
}
