// Shared-memory tiled GEMMs with fused prologues and epilogues, and a fused causal attention that never writes the
// scores: one 64x64-tile GEMM kernel (16-deep k slices in shared memory, a 4x4 block of outputs per thread) runs the
// four projections, applying RoPE in the epilogue of the [Q | K | V] product (a thread's columns tx, tx + 16, tx + 32,
// tx + 48 of a 64-wide tile hold both halves of its pairs), the residuals in the epilogues of W_O and W_down, and
// silu(gate) * up while loading W_down's operand; attention is one block per (64 query rows, query head) streaming
// 32-key tiles of its key/value head through shared memory with an online softmax, stopping at the diagonal.
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

#define BM 64
#define BN 64
#define BK 16
#define THREADS 256

// C[r][c] = epilogue(sum over k of A(r, k) * W[c][k]) for r < M, c < N: W stored (N x K), as every projection here.
// A(r, k) is A[r * lda + k], or with SWIGLU silu(A[r * lda + k]) * A[r * lda + FFN + k] (gate and up side by side).
// The epilogue rotates the pairs (c, c + 32) of every 64-column head with c < rope_cols by row r of cos / sin (RoPE),
// then adds res[r * ldc + c] where res is not null.
template <bool SWIGLU>
__global__ void __launch_bounds__(THREADS)
gemm_kernel(const float* __restrict__ A, int lda, const float* __restrict__ W, float* __restrict__ C, int ldc, int M,
            int N, int K, const float* __restrict__ res, const float* __restrict__ cs, const float* __restrict__ sn,
            int rope_cols) {
  __shared__ float As[BK][BM + 4];
  __shared__ float Bs[BK][BN + 4];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int l = threadIdx.x; l < BM * BK; l += THREADS) {
      const int m = l / BK, k = l % BK;
      const int gr = row0 + m, gk = k0 + k;
      float v = 0.0f;
      if (gr < M && gk < K) {
        if (SWIGLU) {
          const float g = A[(long long)gr * lda + gk], u = A[(long long)gr * lda + FFN + gk];
          v = g / (1.0f + expf(-g)) * u;
        } else {
          v = A[(long long)gr * lda + gk];
        }
      }
      As[k][m] = v;
    }
    for (int l = threadIdx.x; l < BK * BN; l += THREADS) {
      const int c = l / BK, k = l % BK;  // consecutive threads, consecutive addresses along a row of W
      const int gk = k0 + k, gc = col0 + c;
      Bs[k][c] = (gk < K && gc < N) ? W[(long long)gc * K + gk] : 0.0f;
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
  // RoPE: col0 is a multiple of 64, so this tile is one head; column tx + 16 j is element tx + 16 j of the head, and
  // (j = 0, j = 2), (j = 1, j = 3) are the pairs (k, k + 32) for k = tx, tx + 16.
  const bool rope = col0 < rope_cols;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = row0 + ty + 16 * i;
    if (r >= M) continue;
    if (rope) {
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int k = tx + 16 * j;
        const float c = cs[r * (DH / 2) + k], s = sn[r * (DH / 2) + k];
        const float a = acc[i][j], b = acc[i][j + 2];
        acc[i][j] = a * c - b * s;
        acc[i][j + 2] = a * s + b * c;
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int c = col0 + tx + 16 * j;
      if (c >= N) continue;
      float v = acc[i][j];
      if (res) v += res[(long long)r * ldc + c];
      C[(long long)r * ldc + c] = v;
    }
  }
}

// One warp per row of D: the row in registers (16 values per lane).
__global__ void rmsnorm_kernel(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out,
                               int rows) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* v = in + (long long)row * D;
  float x[D / 32];
  float q = 0.0f;
#pragma unroll
  for (int i = 0; i < D / 32; ++i) {
    x[i] = v[lane + 32 * i];
    q = fmaf(x[i], x[i], q);
  }
  for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
  const float inv = rsqrtf(q / D + 1e-5f);
#pragma unroll
  for (int i = 0; i < D / 32; ++i) {
    const int c = lane + 32 * i;
    out[(long long)row * D + c] = x[i] * inv * w[c];
  }
}

#define BQ 64   // query rows per block
#define BKV 32  // keys per tile

// attn[i][g * DH + d] for the BQ query rows of blockIdx.x and query head g = blockIdx.y: causal softmax(Q K^T / 8) V
// with K, V the key/value head g / GROUP, by an online softmax over tiles of BKV keys. Four threads per query row:
// each scores 8 keys of a tile (part, part + 4, ...) and accumulates 16 of the 64 output features.
__global__ void __launch_bounds__(256) attention_kernel(const float* __restrict__ qkv, float* __restrict__ attn,
                                                        int n) {
  __shared__ float Qs[BQ][DH + 1];
  __shared__ float Ks[BKV][DH + 1];
  __shared__ float Vs[BKV][DH];
  __shared__ float Ps[BQ][BKV + 1];
  const int g = blockIdx.y, h = g / GROUP;
  const int q0 = blockIdx.x * BQ;
  const int t = threadIdx.x, r = t / 4, part = t % 4;
  const int i = q0 + r;
  for (int l = t; l < BQ * DH; l += 256) {
    const int rr = l / DH, c = l % DH;
    Qs[rr][c] = q0 + rr < n ? qkv[(long long)(q0 + rr) * QKV + g * DH + c] * 0.125f : 0.0f;  // 1/8 is exact
  }
  float m = -INFINITY, sum = 0.0f, o[DH / 4];
#pragma unroll
  for (int d = 0; d < DH / 4; ++d) o[d] = 0.0f;
  const int kend = min(n, q0 + BQ);  // the tile's last query row sees keys up to itself
  for (int k0 = 0; k0 < kend; k0 += BKV) {
    __syncthreads();  // Qs written (first tile); the previous tile's Ks, Vs read
    for (int l = t; l < BKV * DH; l += 256) {
      const int jj = l / DH, c = l % DH, j = k0 + jj;
      Ks[jj][c] = j < n ? qkv[(long long)j * QKV + HQ * DH + h * DH + c] : 0.0f;
      Vs[jj][c] = j < n ? qkv[(long long)j * QKV + (HQ + HKV) * DH + h * DH + c] : 0.0f;
    }
    __syncthreads();
    float s[BKV / 4];
    float mt = -INFINITY;
#pragma unroll
    for (int e = 0; e < BKV / 4; ++e) {
      const int jj = part + 4 * e, j = k0 + jj;
      float a = 0.0f;
#pragma unroll 16
      for (int c = 0; c < DH; ++c) a = fmaf(Qs[r][c], Ks[jj][c], a);
      s[e] = (j <= i && j < n) ? a : -INFINITY;
      mt = fmaxf(mt, s[e]);
    }
    mt = fmaxf(mt, __shfl_xor_sync(0xffffffffu, mt, 1));
    mt = fmaxf(mt, __shfl_xor_sync(0xffffffffu, mt, 2));
    const float mnew = fmaxf(m, mt);  // finite: key 0 is seen by every row from the first tile on
    const float corr = expf(m - mnew);  // 0 on the first tile (m = -inf)
    float ps = 0.0f;
#pragma unroll
    for (int e = 0; e < BKV / 4; ++e) {
      const float p = expf(s[e] - mnew);  // masked keys: exp(-inf) = 0
      Ps[r][part + 4 * e] = p;
      ps += p;
    }
    ps += __shfl_xor_sync(0xffffffffu, ps, 1);
    ps += __shfl_xor_sync(0xffffffffu, ps, 2);
    sum = sum * corr + ps;
    m = mnew;
    __syncwarp();  // the row's probabilities, written by its 4 lanes, read by the same 4 lanes
#pragma unroll
    for (int d = 0; d < DH / 4; ++d) o[d] *= corr;
    for (int jj = 0; jj < BKV; ++jj) {
      const float p = Ps[r][jj];
#pragma unroll
      for (int d = 0; d < DH / 4; ++d) o[d] = fmaf(p, Vs[jj][part * (DH / 4) + d], o[d]);
    }
    __syncwarp();  // every lane has read Ps before the next tile overwrites it
  }
  if (i < n) {
    const float inv = 1.0f / sum;
#pragma unroll
    for (int d = 0; d < DH / 4; ++d) attn[(long long)i * D + g * DH + part * (DH / 4) + d] = o[d] * inv;
  }
}

// Row-major C (M x N, ldc) = A W^T (+ RoPE on columns < rope_cols, + res).
template <bool SWIGLU>
static void gemm(const float* A, int lda, const float* W, float* C, int ldc, int M, int N, int K, const float* res,
                 const float* cs = nullptr, const float* sn = nullptr, int rope_cols = 0) {
  const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  gemm_kernel<SWIGLU><<<grid, THREADS>>>(A, lda, W, C, ldc, M, N, K, res, cs, sn, rope_cols);
}

extern "C" void solve(const float* x, float* output, const float* weights, const float* cos, const float* sin,
                      int seq_len) {
  const int n = seq_len;
  const float* w = weights;
  float *xn, *qkv, *attn, *hid, *gu;
  cudaMalloc(&xn, sizeof(float) * n * D);
  cudaMalloc(&qkv, sizeof(float) * n * QKV);
  cudaMalloc(&attn, sizeof(float) * n * D);
  cudaMalloc(&hid, sizeof(float) * n * D);
  cudaMalloc(&gu, sizeof(float) * (size_t)n * 2 * FFN);
  const int warps = 8;  // rows per 256-thread block

  rmsnorm_kernel<<<(n + warps - 1) / warps, 32 * warps>>>(x, w + O_RMS1, xn, n);
  // W_Q, W_K, W_V are one (768 x 512) matrix; RoPE on the Q and K heads (columns < 640) in the epilogue.
  gemm<false>(xn, D, w + O_WQ, qkv, QKV, n, QKV, D, nullptr, cos, sin, (HQ + HKV) * DH);
  attention_kernel<<<dim3((n + BQ - 1) / BQ, HQ), 256>>>(qkv, attn, n);
  gemm<false>(attn, D, w + O_WO, hid, D, n, D, D, x);
  rmsnorm_kernel<<<(n + warps - 1) / warps, 32 * warps>>>(hid, w + O_RMS2, xn, n);
  // W_gate, W_up are one (2816 x 512) matrix: gate | up side by side in gu.
  gemm<false>(xn, D, w + O_WGATE, gu, 2 * FFN, n, 2 * FFN, D, nullptr);
  gemm<true>(gu, 2 * FFN, w + O_WDOWN, output, D, n, D, FFN, hid);

  cudaDeviceSynchronize();
  cudaFree(xn);
  cudaFree(qkv);
  cudaFree(attn);
  cudaFree(hid);
  cudaFree(gu);
}
