// Shared-memory tiled GEMMs with fused epilogues: one batched 64x64-tile kernel (16-deep k slices in shared memory,
// a 4x4 block of outputs per thread) runs all six products (the four linear layers, and the attention's Q K^T and
// P V over the 12 heads as a batch, reading Q, K and V in place), with the bias, the 1/8 score scale, the GELU and
// the residuals applied in its epilogue instead of extra passes; LayerNorm and the softmax take one warp per row.
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

#define BM 64
#define BN 64
#define BK 16
#define THREADS 256

// C[z][r][c] = epilogue(alpha * sum over k of A[z][r][k] * B[z](k, c)) for r < M, c < N, batch z = blockIdx.z.
// B(k, c) is B[k * ldb + c], or B[c * ldb + k] when B_T (the K matrix of Q K^T). The epilogue adds bias[c], applies
// the tanh GELU when gelu, then adds res[r * ldc + c] (the residual, same layout as C).
template <bool B_T>
__global__ void __launch_bounds__(THREADS)
gemm_kernel(const float* __restrict__ A, int lda, long long sA, const float* __restrict__ B, int ldb, long long sB,
            float* __restrict__ C, int ldc, long long sC, int M, int N, int K, float alpha,
            const float* __restrict__ bias, int gelu, const float* __restrict__ res) {
  __shared__ float As[BK][BM + 4];
  __shared__ float Bs[BK][BN + 4];
  A += blockIdx.z * sA;
  B += blockIdx.z * sB;
  C += blockIdx.z * sC;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int l = threadIdx.x; l < BM * BK; l += THREADS) {
      const int m = l / BK, k = l % BK;
      const int gr = row0 + m, gk = k0 + k;
      As[k][m] = (gr < M && gk < K) ? A[(long long)gr * lda + gk] : 0.0f;
    }
    for (int l = threadIdx.x; l < BK * BN; l += THREADS) {
      int k, c;
      if (B_T) { c = l / BK; k = l % BK; } else { k = l / BN; c = l % BN; }  // consecutive threads, consecutive addresses
      const int gk = k0 + k, gc = col0 + c;
      float v = 0.0f;
      if (gk < K && gc < N) v = B_T ? B[(long long)gc * ldb + gk] : B[(long long)gk * ldb + gc];
      Bs[k][c] = v;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = row0 + ty + 16 * i;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int c = col0 + tx + 16 * j;
      if (c >= N) continue;
      float v = alpha * acc[i][j];
      if (bias) v += bias[c];
      if (gelu) v = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
      if (res) v += res[(long long)r * ldc + c];
      C[(long long)r * ldc + c] = v;
    }
  }
}

// One warp per row of D: the row in registers (24 values per lane), mean then variance from them.
__global__ void layernorm_kernel(const float* __restrict__ in, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float* __restrict__ out, int rows) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* v = in + (long long)row * D;
  float x[D / 32];
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < D / 32; ++i) s += (x[i] = v[lane + 32 * i]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  const float mean = s / D;
  float q = 0.0f;
#pragma unroll
  for (int i = 0; i < D / 32; ++i) q += (x[i] - mean) * (x[i] - mean);
  for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
  const float inv = rsqrtf(q / D + 1e-5f);
#pragma unroll
  for (int i = 0; i < D / 32; ++i) {
    const int c = lane + 32 * i;
    out[(long long)row * D + c] = (x[i] - mean) * inv * gamma[c] + beta[c];
  }
}

// One warp per row of n (already scaled) scores, in place: max, exponentials and their sum, then the division.
__global__ void softmax_kernel(float* S, long long rows, int n) {
  const long long row = blockIdx.x * (long long)(blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  float* s = S + row * n;
  float m = -INFINITY;
  for (int j = lane; j < n; j += 32) m = fmaxf(m, s[j]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float sum = 0.0f;
  for (int j = lane; j < n; j += 32) sum += (s[j] = expf(s[j] - m));
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  const float inv = 1.0f / sum;
  for (int j = lane; j < n; j += 32) s[j] *= inv;
}

// Row-major C (M x N, ldc) = alpha A (M x K, lda) B (+ epilogue), batch of `batch`.
template <bool B_T>
static void gemm(const float* A, int lda, long long sA, const float* B, int ldb, long long sB, float* C, int ldc,
                 long long sC, int M, int N, int K, int batch, float alpha, const float* bias, int gelu,
                 const float* res) {
  const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM, batch);
  gemm_kernel<B_T><<<grid, THREADS>>>(A, lda, sA, B, ldb, sB, C, ldc, sC, M, N, K, alpha, bias, gelu, res);
}

extern "C" void solve(const float* x, float* output, const float* weights, int seq_len) {
  const int n = seq_len;
  const float* w = weights;
  float *xn, *qkv, *S, *attn, *hid, *fc;
  cudaMalloc(&xn, sizeof(float) * n * D);
  cudaMalloc(&qkv, sizeof(float) * n * 3 * D);
  cudaMalloc(&S, sizeof(float) * (size_t)H * n * n);
  cudaMalloc(&attn, sizeof(float) * n * D);
  cudaMalloc(&hid, sizeof(float) * n * D);
  cudaMalloc(&fc, sizeof(float) * (size_t)n * FFN);
  const int warps = 8;  // rows per 256-thread block

  layernorm_kernel<<<(n + warps - 1) / warps, 32 * warps>>>(x, w + O_LN1_W, w + O_LN1_B, xn, n);
  gemm<false>(xn, D, 0, w + O_WQKV, 3 * D, 0, qkv, 3 * D, 0, n, 3 * D, D, 1, 1.0f, w + O_BQKV, 0, nullptr);
  // Scores of every head: S_h (n x n) = Q_h K_h^T / 8, Q_h and K_h the 64 columns of head h in qkv.
  gemm<true>(qkv, 3 * D, DH, qkv + D, 3 * D, DH, S, n, (long long)n * n, n, n, DH, H, 0.125f, nullptr, 0, nullptr);
  const long long rows = (long long)H * n;
  softmax_kernel<<<(unsigned)((rows + warps - 1) / warps), 32 * warps>>>(S, rows, n);
  // attn_h (n x 64, written into head h's columns) = P_h V_h.
  gemm<false>(S, n, (long long)n * n, qkv + 2 * D, 3 * D, DH, attn, D, DH, n, DH, n, H, 1.0f, nullptr, 0, nullptr);
  gemm<false>(attn, D, 0, w + O_WATTN, D, 0, hid, D, 0, n, D, D, 1, 1.0f, w + O_BATTN, 0, x);
  layernorm_kernel<<<(n + warps - 1) / warps, 32 * warps>>>(hid, w + O_LN2_W, w + O_LN2_B, xn, n);
  gemm<false>(xn, D, 0, w + O_WFC, FFN, 0, fc, FFN, 0, n, FFN, D, 1, 1.0f, w + O_BFC, 1, nullptr);
  gemm<false>(fc, FFN, 0, w + O_WPROJ, D, 0, output, D, 0, n, D, FFN, 1, 1.0f, w + O_BPROJ, 0, hid);

  cudaDeviceSynchronize();
  cudaFree(xn);
  cudaFree(qkv);
  cudaFree(S);
  cudaFree(attn);
  cudaFree(hid);
  cudaFree(fc);
}
