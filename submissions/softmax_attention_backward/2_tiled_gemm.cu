// Rung 2: the five products of rung 1 as shared-memory tiled matrix multiplications, 64 x 64 outputs per block and
// 4 x 4 per thread in registers, one kernel for all five.
// Rung 1 gave every output element its own thread, which reread its whole row and column from global memory: each
// input element was loaded once per output that used it. Here a block stages 64 x 16 tiles of both operands in shared
// memory, and each thread reuses every value it reads from there four times, so global traffic drops 64-fold and the
// time goes into FMAs. The kernel takes each operand with a row and a column stride, so the transposed products
// (dV = P^T dO, dK = dS^T Q, S = Q K^T) need no transposed copies; a tile is loaded along whichever index is
// contiguous, so the loads stay coalesced. The row steps (softmax and dS) keep one block per row, now with warp
// shuffles. P, dP and dS still live in scratch, a chunk of query rows at a time.
#include <cuda_runtime.h>

#include <math.h>

#define BM 64       // output rows per block
#define BN 64       // output columns per block
#define BK 16       // depth per shared-memory tile
#define THREADS 256 // 16 x 16 threads, each 4 x 4 outputs: rows ty + 16 a, columns tx + 16 b
#define MAX_SCRATCH_FLOATS (1 << 26)

// C[i][j] (=, or += when accumulate) sum over k < depth of A(i, k) B(k, j), for i < rows, j < cols, where
// A(i, k) = A[i * a_i + k * a_k] and B(k, j) = B[k * b_k + j * b_j]; C is row-major with leading dimension ldc.
__global__ void __launch_bounds__(THREADS) gemm_kernel(const float* __restrict__ A, long long a_i, long long a_k,
                                                       const float* __restrict__ B, long long b_k, long long b_j,
                                                       float* C, int ldc, int rows, int cols, int depth,
                                                       int accumulate) {
  __shared__ float As[BK][BM + 4];  // As[k][i]
  __shared__ float Bs[BK][BN + 4];  // Bs[k][j]
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int i0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < depth; k0 += BK) {
#pragma unroll
    for (int t = 0; t < (BM * BK) / THREADS; ++t) {
      const int e = tid + t * THREADS;
      // Consecutive threads walk the index whose stride is 1, so a warp reads contiguous memory.
      const int ii = a_k == 1 ? e / BK : e % BM;
      const int kk = a_k == 1 ? e % BK : e / BM;
      const int gi = i0 + ii, gk = k0 + kk;
      As[kk][ii] = gi < rows && gk < depth ? A[gi * a_i + gk * a_k] : 0.0f;
    }
#pragma unroll
    for (int t = 0; t < (BN * BK) / THREADS; ++t) {
      const int e = tid + t * THREADS;
      const int jj = b_j == 1 ? e % BN : e / BK;
      const int kk = b_j == 1 ? e / BN : e % BK;
      const int gj = j0 + jj, gk = k0 + kk;
      Bs[kk][jj] = gj < cols && gk < depth ? B[gk * b_k + gj * b_j] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int x = 0; x < 4; ++x) a[x] = As[k][ty + 16 * x];
#pragma unroll
      for (int y = 0; y < 4; ++y) b[y] = Bs[k][tx + 16 * y];
#pragma unroll
      for (int x = 0; x < 4; ++x)
#pragma unroll
        for (int y = 0; y < 4; ++y) acc[x][y] = fmaf(a[x], b[y], acc[x][y]);
    }
    __syncthreads();  // the tiles are read before the next ones overwrite them
  }
#pragma unroll
  for (int x = 0; x < 4; ++x) {
    const int i = i0 + ty + 16 * x;
    if (i >= rows) continue;
#pragma unroll
    for (int y = 0; y < 4; ++y) {
      const int j = j0 + tx + 16 * y;
      if (j >= cols) continue;
      float* c = C + (long long)i * ldc + j;
      *c = accumulate ? *c + acc[x][y] : acc[x][y];
    }
  }
}

// Sum (or maximum) over a block of THREADS threads by warp shuffles; every thread gets the result.
template <bool IS_MAX>
__device__ float block_reduce(float v) {
  __shared__ float partial[THREADS / 32];
  for (int o = 16; o > 0; o /= 2) {
    const float w = __shfl_xor_sync(0xffffffffu, v, o);
    v = IS_MAX ? fmaxf(v, w) : v + w;
  }
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  v = partial[0];
  for (int w = 1; w < THREADS / 32; ++w) v = IS_MAX ? fmaxf(v, partial[w]) : v + partial[w];
  __syncthreads();  // everyone has read partial[] before the next call overwrites it
  return v;
}

// A row of unscaled scores becomes P = softmax(scale * s), in place.
__global__ void softmax_rows_kernel(float* S, int N, float scale) {
  float* row = S + (size_t)blockIdx.x * N;
  float m = -INFINITY;  // not 0: a row whose scores are all negative has a negative maximum
  for (int j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, row[j] * scale);
  m = block_reduce<true>(m);
  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) {
    const float e = expf(row[j] * scale - m);
    row[j] = e;
    sum += e;
  }
  const float inv = 1.0f / block_reduce<false>(sum);  // the sum is >= 1: the maximum contributes exp(0)
  for (int j = threadIdx.x; j < N; j += THREADS) row[j] *= inv;
}

// dP becomes dS = P (dP - D) scale, D = rowsum(P o dP).
__global__ void ds_rows_kernel(const float* P, float* dP, int N, float scale) {
  const float* p = P + (size_t)blockIdx.x * N;
  float* g = dP + (size_t)blockIdx.x * N;
  float D = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) D += p[j] * g[j];
  D = block_reduce<false>(D);
  for (int j = threadIdx.x; j < N; j += THREADS) g[j] = p[j] * (g[j] - D) * scale;
}

// C (rows x cols, ldc) (+)= A B with A(i, k) = A[i * a_i + k * a_k], B(k, j) = B[k * b_k + j * b_j].
static void gemm(const float* A, long long a_i, long long a_k, const float* B, long long b_k, long long b_j, float* C,
                 int ldc, int rows, int cols, int depth, int accumulate) {
  const dim3 grid((cols + BN - 1) / BN, (rows + BM - 1) / BM);
  gemm_kernel<<<grid, THREADS>>>(A, a_i, a_k, B, b_k, b_j, C, ldc, rows, cols, depth, accumulate);
}

// Q and dO are M x d, K and V are N x d, dQ is M x d, dK and dV are N x d, all row-major device pointers.
extern "C" void solve(const float* Q, const float* K, const float* V, const float* dO, float* dQ, float* dK, float* dV,
                      int M, int N, int d) {
  const int rows = (int)fmin((double)M, fmax(1.0, (double)(MAX_SCRATCH_FLOATS / N)));  // query rows per chunk
  static float* P = nullptr;  // P, then dP and dS: kept between calls, grown when a larger chunk is needed
  static float* G = nullptr;
  static size_t capacity = 0;
  const size_t need = (size_t)rows * N;
  if (need > capacity) {
    cudaFree(P);
    cudaFree(G);
    cudaMalloc(&P, need * sizeof(float));
    cudaMalloc(&G, need * sizeof(float));
    capacity = need;
  }
  const float scale = 1.0f / sqrtf((float)d);
  for (int r0 = 0; r0 < M; r0 += rows) {
    const int r = M - r0 < rows ? M - r0 : rows;
    const float* Qc = Q + (size_t)r0 * d;
    const float* dOc = dO + (size_t)r0 * d;
    const int acc = r0 > 0;  // dK and dV sum over every chunk's query rows
    gemm(Qc, d, 1, K, 1, d, P, N, r, N, d, 0);            // S = Q K^T: B(k, j) = K[j][k]
    softmax_rows_kernel<<<r, THREADS>>>(P, N, scale);     // P
    gemm(P, 1, N, dOc, d, 1, dV, d, N, d, r, acc);        // dV += P^T dO: A(j, i) = P[i][j]
    gemm(dOc, d, 1, V, 1, d, G, N, r, N, d, 0);           // dP = dO V^T
    ds_rows_kernel<<<r, THREADS>>>(P, G, N, scale);       // dS
    gemm(G, N, 1, K, d, 1, dQ + (size_t)r0 * d, d, r, d, N, 0);  // dQ = dS K
    gemm(G, 1, N, Qc, d, 1, dK, d, N, d, r, acc);         // dK += dS^T Q
  }
  cudaDeviceSynchronize();
}
