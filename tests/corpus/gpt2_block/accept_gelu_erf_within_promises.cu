// expect: accepted
// expect-stress-failed: wide_weights_128
// expect-stress-failed: wide_weights_64
// submissions/gpt2_block/1_naive.cu with the exact GELU, 0.5 z (1 + erf(z / sqrt(2))), instead of the tanh form the
// statement asks for: wrong by the statement, but accepted, as on LeetGPU, because the graded cases keep LeetGPU's
// weight scale and the error stays inside the tolerance there; the stress cases show it. The two differ by at most about 5e-4, so at LeetGPU's weight scale (pre-activations of
// standard deviation 0.55) the error stays under the tolerance; with weights of standard deviation 0.07
// (wide_weights_128, wide_weights_64) the pre-activations reach several units and about 1% of the outputs miss by up
// to 3x the tolerance.
#include <cuda_runtime.h>
#include <math.h>

#define D 768
#define H 12
#define DH 64
#define FFN 3072
#define O_LN1_W 0
#define O_LN1_B (O_LN1_W + D)
#define O_WQKV (O_LN1_B + D)
#define O_BQKV (O_WQKV + D * 3 * D)
#define O_WATTN (O_BQKV + 3 * D)
#define O_BATTN (O_WATTN + D * D)
#define O_LN2_W (O_BATTN + D)
#define O_LN2_B (O_LN2_W + D)
#define O_WFC (O_LN2_B + D)
#define O_BFC (O_WFC + D * FFN)
#define O_WPROJ (O_BFC + FFN)
#define O_BPROJ (O_WPROJ + FFN * D)

__global__ void layernorm_kernel(const float* in, const float* gamma, const float* beta, float* out, int rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* v = in + (size_t)r * D;
  float mean = 0.0f;
  for (int c = 0; c < D; ++c) mean += v[c];
  mean /= D;
  float var = 0.0f;
  for (int c = 0; c < D; ++c) var += (v[c] - mean) * (v[c] - mean);
  const float inv = 1.0f / sqrtf(var / D + 1e-5f);
  for (int c = 0; c < D; ++c) out[(size_t)r * D + c] = (v[c] - mean) * inv * gamma[c] + beta[c];
}

// out[r][c] = in[r] . W[:, c] + bias[c] (+ res[r][c]), optionally through the tanh GELU.
__global__ void linear_kernel(const float* in, const float* W, const float* bias, const float* res, float* out,
                              int rows, int K, int C, int gelu) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y;
  if (c >= C || r >= rows) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += in[(size_t)r * K + k] * W[(size_t)k * C + c];
  acc += bias[c];
  if (gelu) acc = 0.5f * acc * (1.0f + erff(acc * 0.70710678f));  // the exact GELU: wrong variant
  if (res) acc += res[(size_t)r * C + c];
  out[(size_t)r * C + c] = acc;
}

// S[h][i][j] = Q_h[i] . K_h[j] / 8, Q and K read in place in qkv (rows of 3D).
__global__ void scores_kernel(const float* qkv, float* S, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y, h = blockIdx.z;
  if (j >= n) return;
  const float* q = qkv + (size_t)i * 3 * D + h * DH;
  const float* k = qkv + (size_t)j * 3 * D + D + h * DH;
  float acc = 0.0f;
  for (int c = 0; c < DH; ++c) acc += q[c] * k[c];
  S[((size_t)h * n + i) * n + j] = acc * 0.125f;
}

__global__ void softmax_kernel(float* S, int rows, int n) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float* s = S + (size_t)r * n;
  float m = -INFINITY;
  for (int j = 0; j < n; ++j) m = fmaxf(m, s[j]);
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += (s[j] = expf(s[j] - m));
  for (int j = 0; j < n; ++j) s[j] /= sum;
}

// attn[i][h * DH + c] = sum over j of P[h][i][j] * V_h[j][c].
__global__ void pv_kernel(const float* S, const float* qkv, float* attn, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // 0 .. D-1
  const int i = blockIdx.y;
  if (col >= D) return;
  const int h = col / DH;
  const float* p = S + ((size_t)h * n + i) * n;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc += p[j] * qkv[(size_t)j * 3 * D + 2 * D + col];
  attn[(size_t)i * D + col] = acc;
}

extern "C" void solve(const float* x, float* output, const float* weights, int seq_len) {
  const int n = seq_len;
  float *xn, *qkv, *S, *attn, *hid, *fc;
  cudaMalloc(&xn, sizeof(float) * n * D);
  cudaMalloc(&qkv, sizeof(float) * n * 3 * D);
  cudaMalloc(&S, sizeof(float) * (size_t)H * n * n);
  cudaMalloc(&attn, sizeof(float) * n * D);
  cudaMalloc(&hid, sizeof(float) * n * D);
  cudaMalloc(&fc, sizeof(float) * (size_t)n * FFN);
  const float* w = weights;
  const int T = 256;

  layernorm_kernel<<<(n + T - 1) / T, T>>>(x, w + O_LN1_W, w + O_LN1_B, xn, n);
  linear_kernel<<<dim3((3 * D + T - 1) / T, n), T>>>(xn, w + O_WQKV, w + O_BQKV, nullptr, qkv, n, D, 3 * D, 0);
  scores_kernel<<<dim3((n + T - 1) / T, n, H), T>>>(qkv, S, n);
  softmax_kernel<<<(H * n + T - 1) / T, T>>>(S, H * n, n);
  pv_kernel<<<dim3((D + T - 1) / T, n), T>>>(S, qkv, attn, n);
  linear_kernel<<<dim3((D + T - 1) / T, n), T>>>(attn, w + O_WATTN, w + O_BATTN, x, hid, n, D, D, 0);
  layernorm_kernel<<<(n + T - 1) / T, T>>>(hid, w + O_LN2_W, w + O_LN2_B, xn, n);
  linear_kernel<<<dim3((FFN + T - 1) / T, n), T>>>(xn, w + O_WFC, w + O_BFC, nullptr, fc, n, D, FFN, 1);
  linear_kernel<<<dim3((D + T - 1) / T, n), T>>>(fc, w + O_WPROJ, w + O_BPROJ, hid, output, n, FFN, D, 0);

  cudaDeviceSynchronize();
  cudaFree(xn);
  cudaFree(qkv);
  cudaFree(S);
  cudaFree(attn);
  cudaFree(hid);
  cudaFree(fc);
}
