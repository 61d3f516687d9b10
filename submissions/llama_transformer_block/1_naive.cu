// One thread per output of every stage: RMSNorm one thread per row, each projection one thread per output element
// (a dot product over the whole input row), RoPE one thread per rotated pair, the attention scores one thread per
// (head, query, key), the softmax one thread per row of scores, P V one thread per output feature. Every
// intermediate goes through global memory.
#include <cuda_runtime.h>
#include <math.h>

#define D 512
#define HQ 8
#define HKV 2
#define DH 64
#define GROUP (HQ / HKV)
#define FFN 1408
#define QKV ((HQ + 2 * HKV) * DH)  // 768: Q, K, V side by side
#define O_RMS1 0
#define O_WQ (O_RMS1 + D)
#define O_WK (O_WQ + HQ * DH * D)
#define O_WV (O_WK + HKV * DH * D)
#define O_WO (O_WV + HKV * DH * D)
#define O_RMS2 (O_WO + D * D)
#define O_WGATE (O_RMS2 + D)
#define O_WUP (O_WGATE + FFN * D)
#define O_WDOWN (O_WUP + FFN * D)

__global__ void rmsnorm_kernel(const float* in, const float* w, float* out, int rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* v = in + (size_t)r * D;
  float ss = 0.0f;
  for (int c = 0; c < D; ++c) ss += v[c] * v[c];
  const float inv = 1.0f / sqrtf(ss / D + 1e-5f);
  for (int c = 0; c < D; ++c) out[(size_t)r * D + c] = v[c] * inv * w[c];
}

// out[r][o] = in[r] . W[o] (+ res[r][o]), W stored (C x K), row-major; out has rows of C.
__global__ void linear_kernel(const float* in, const float* W, const float* res, float* out, int rows, int K, int C) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y;
  if (o >= C || r >= rows) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += in[(size_t)r * K + k] * W[(size_t)o * K + k];
  if (res) acc += res[(size_t)r * C + o];
  out[(size_t)r * C + o] = acc;
}

// In place on qkv's Q and K columns: token i, head h (8 query then 2 key heads), pair (k, k + 32).
__global__ void rope_kernel(float* qkv, const float* cs, const float* sn, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * (HQ + HKV) * (DH / 2)) return;
  const int i = t / ((HQ + HKV) * (DH / 2)), h = t / (DH / 2) % (HQ + HKV), k = t % (DH / 2);
  float* v = qkv + (size_t)i * QKV + h * DH;
  const float a = v[k], b = v[k + DH / 2], c = cs[i * (DH / 2) + k], s = sn[i * (DH / 2) + k];
  v[k] = a * c - b * s;
  v[k + DH / 2] = a * s + b * c;
}

// S[g][i][j] = Q_g[i] . K_{g/4}[j] / 8 for j <= i (the causal mask: later keys are never read).
__global__ void scores_kernel(const float* qkv, float* S, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y, g = blockIdx.z;
  if (j > i) return;
  const float* q = qkv + (size_t)i * QKV + g * DH;
  const float* k = qkv + (size_t)j * QKV + HQ * DH + (g / GROUP) * DH;
  float acc = 0.0f;
  for (int c = 0; c < DH; ++c) acc += q[c] * k[c];
  S[((size_t)g * n + i) * n + j] = acc * 0.125f;
}

// Row r = g * n + i: softmax over its i + 1 visible scores.
__global__ void softmax_kernel(float* S, int rows, int n) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int len = r % n + 1;
  float* s = S + (size_t)r * n;
  float m = -INFINITY;
  for (int j = 0; j < len; ++j) m = fmaxf(m, s[j]);
  float sum = 0.0f;
  for (int j = 0; j < len; ++j) sum += (s[j] = expf(s[j] - m));
  for (int j = 0; j < len; ++j) s[j] /= sum;
}

// attn[i][g * DH + c] = sum over j <= i of P[g][i][j] * V_{g/4}[j][c].
__global__ void pv_kernel(const float* S, const float* qkv, float* attn, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // 0 .. D-1
  const int i = blockIdx.y;
  if (col >= D) return;
  const int g = col / DH, c = col % DH;
  const float* p = S + ((size_t)g * n + i) * n;
  const float* v = qkv + (HQ + HKV) * DH + (g / GROUP) * DH + c;
  float acc = 0.0f;
  for (int j = 0; j <= i; ++j) acc += p[j] * v[(size_t)j * QKV];
  attn[(size_t)i * D + col] = acc;
}

// h[i][j] = silu(gate[i][j]) * up[i][j], gate and up side by side in gu (rows of 2 FFN).
__global__ void swiglu_kernel(const float* gu, float* h, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * FFN) return;
  const int i = t / FFN, j = t % FFN;
  const float g = gu[(size_t)i * 2 * FFN + j], u = gu[(size_t)i * 2 * FFN + FFN + j];
  h[t] = g / (1.0f + expf(-g)) * u;
}

extern "C" void solve(const float* x, float* output, const float* weights, const float* cos, const float* sin,
                      int seq_len) {
  const int n = seq_len;
  float *xn, *qkv, *S, *attn, *hid, *gu, *hb;
  cudaMalloc(&xn, sizeof(float) * n * D);
  cudaMalloc(&qkv, sizeof(float) * n * QKV);
  cudaMalloc(&S, sizeof(float) * (size_t)HQ * n * n);
  cudaMalloc(&attn, sizeof(float) * n * D);
  cudaMalloc(&hid, sizeof(float) * n * D);
  cudaMalloc(&gu, sizeof(float) * (size_t)n * 2 * FFN);
  cudaMalloc(&hb, sizeof(float) * (size_t)n * FFN);
  const float* w = weights;
  const int T = 256;

  rmsnorm_kernel<<<(n + T - 1) / T, T>>>(x, w + O_RMS1, xn, n);
  // W_Q, W_K, W_V are consecutive: one (768 x 512) matrix giving [Q | K | V].
  linear_kernel<<<dim3((QKV + T - 1) / T, n), T>>>(xn, w + O_WQ, nullptr, qkv, n, D, QKV);
  rope_kernel<<<(n * (HQ + HKV) * (DH / 2) + T - 1) / T, T>>>(qkv, cos, sin, n);
  scores_kernel<<<dim3((n + T - 1) / T, n, HQ), T>>>(qkv, S, n);
  softmax_kernel<<<(HQ * n + T - 1) / T, T>>>(S, HQ * n, n);
  pv_kernel<<<dim3((D + T - 1) / T, n), T>>>(S, qkv, attn, n);
  linear_kernel<<<dim3((D + T - 1) / T, n), T>>>(attn, w + O_WO, x, hid, n, D, D);
  rmsnorm_kernel<<<(n + T - 1) / T, T>>>(hid, w + O_RMS2, xn, n);
  // W_gate, W_up likewise: one (2816 x 512) matrix giving [gate | up].
  linear_kernel<<<dim3((2 * FFN + T - 1) / T, n), T>>>(xn, w + O_WGATE, nullptr, gu, n, D, 2 * FFN);
  swiglu_kernel<<<(n * FFN + T - 1) / T, T>>>(gu, hb, n);
  linear_kernel<<<dim3((D + T - 1) / T, n), T>>>(hb, w + O_WDOWN, hid, output, n, FFN, D);

  cudaDeviceSynchronize();
  cudaFree(xn);
  cudaFree(qkv);
  cudaFree(S);
  cudaFree(attn);
  cudaFree(hid);
  cudaFree(gu);
  cudaFree(hb);
}
