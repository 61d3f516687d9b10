// Rung 1: the definition, one thread per output element of each step, with P and dS for a chunk of query rows in
// scratch buffers. The steps, per chunk:
//   1. scores: one thread per (query i, key j) computes S[i][j] = dot(Q[i], K[j]) / sqrt(d);
//   2. softmax: one block per row of S finds the row's maximum, sums exp(S - max) and divides, in place: P;
//   3. dP: one thread per (i, j) computes dot(dO[i], V[j]);
//   4. dS: one block per row sums D = rowsum(P o dP), then dS = P (dP - D) / sqrt(d), in place of dP;
//   5. dQ: one thread per (i, c) computes sum over j of dS[i][j] K[j][c];
//   6. dK and dV: one thread per (j, c) computes sum over i of dS[i][j] Q[i][c] and of P[i][j] dO[i][c], and adds it
//      to what earlier chunks left (the sums run over every query row).
// Query rows go through in chunks, so each scratch buffer stays under 256 MiB even for M = N = 100,000.
#include <cuda_runtime.h>

#include <math.h>

#define TILE 16
#define THREADS 256
#define MAX_SCRATCH_FLOATS (1 << 26)

// S[i][j] = dot(A[i], B[j]) * scale for i < rows, j < N; A is rows x d, B is N x d.
__global__ void row_dots_kernel(const float* A, const float* B, float* S, int rows, int N, int d, float scale) {
  const int j = blockIdx.x * TILE + threadIdx.x;  // key
  const int i = blockIdx.y * TILE + threadIdx.y;  // query row within the chunk
  if (i < rows && j < N) {
    float acc = 0.0f;
    for (int c = 0; c < d; ++c) acc += A[(size_t)i * d + c] * B[(size_t)j * d + c];
    S[(size_t)i * N + j] = acc * scale;
  }
}

// Block-wide reduction of THREADS values through shared memory; every thread gets the result.
template <bool IS_MAX>
__device__ float block_reduce(float v, float* shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      shared[threadIdx.x] = IS_MAX ? fmaxf(shared[threadIdx.x], shared[threadIdx.x + s])
                                   : shared[threadIdx.x] + shared[threadIdx.x + s];
    __syncthreads();
  }
  const float result = shared[0];
  __syncthreads();  // everyone has read shared[0] before the buffer is reused
  return result;
}

__global__ void softmax_rows_kernel(float* S, int N) {
  __shared__ float shared[THREADS];
  float* row = S + (size_t)blockIdx.x * N;
  float m = -INFINITY;  // not 0: a row whose scores are all negative has a negative maximum
  for (int j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, row[j]);
  m = block_reduce<true>(m, shared);
  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) {
    const float e = expf(row[j] - m);
    row[j] = e;
    sum += e;
  }
  sum = block_reduce<false>(sum, shared);
  const float inv = 1.0f / sum;  // sum >= 1: the maximum contributes exp(0)
  for (int j = threadIdx.x; j < N; j += THREADS) row[j] *= inv;
}

// dP becomes dS = P (dP - D) scale, D = rowsum(P o dP): the softmax Jacobian applied to the row of dP.
__global__ void ds_rows_kernel(const float* P, float* dP, int N, float scale) {
  __shared__ float shared[THREADS];
  const float* p = P + (size_t)blockIdx.x * N;
  float* g = dP + (size_t)blockIdx.x * N;
  float D = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) D += p[j] * g[j];
  D = block_reduce<false>(D, shared);
  for (int j = threadIdx.x; j < N; j += THREADS) g[j] = p[j] * (g[j] - D) * scale;
}

// dQ[i][c] = sum over j of dS[i][j] K[j][c] for the chunk's rows.
__global__ void dq_kernel(const float* dS, const float* K, float* dQ, int rows, int N, int d) {
  const int c = blockIdx.x * TILE + threadIdx.x;
  const int i = blockIdx.y * TILE + threadIdx.y;
  if (i < rows && c < d) {
    float acc = 0.0f;
    for (int j = 0; j < N; ++j) acc += dS[(size_t)i * N + j] * K[(size_t)j * d + c];
    dQ[(size_t)i * d + c] = acc;
  }
}

// dK[j][c] (+)= sum over the chunk's rows i of dS[i][j] Q[i][c]; dV[j][c] (+)= sum of P[i][j] dO[i][c].
__global__ void dkv_kernel(const float* P, const float* dS, const float* Q, const float* dO, float* dK, float* dV,
                           int rows, int N, int d, int accumulate) {
  const int c = blockIdx.x * TILE + threadIdx.x;
  const int j = blockIdx.y * TILE + threadIdx.y;
  if (j < N && c < d) {
    float k = 0.0f, v = 0.0f;
    for (int i = 0; i < rows; ++i) {
      k += dS[(size_t)i * N + j] * Q[(size_t)i * d + c];
      v += P[(size_t)i * N + j] * dO[(size_t)i * d + c];
    }
    const size_t o = (size_t)j * d + c;
    dK[o] = accumulate ? dK[o] + k : k;
    dV[o] = accumulate ? dV[o] + v : v;
  }
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
  const dim3 threads(TILE, TILE);
  for (int r0 = 0; r0 < M; r0 += rows) {
    const int r = M - r0 < rows ? M - r0 : rows;
    const float* Qc = Q + (size_t)r0 * d;
    const float* dOc = dO + (size_t)r0 * d;
    const dim3 scores((N + TILE - 1) / TILE, (r + TILE - 1) / TILE);
    row_dots_kernel<<<scores, threads>>>(Qc, K, P, r, N, d, scale);
    softmax_rows_kernel<<<r, THREADS>>>(P, N);
    row_dots_kernel<<<scores, threads>>>(dOc, V, G, r, N, d, 1.0f);
    ds_rows_kernel<<<r, THREADS>>>(P, G, N, scale);
    dq_kernel<<<dim3((d + TILE - 1) / TILE, (r + TILE - 1) / TILE), threads>>>(G, K, dQ + (size_t)r0 * d, r, N, d);
    dkv_kernel<<<dim3((d + TILE - 1) / TILE, (N + TILE - 1) / TILE), threads>>>(P, G, Qc, dOc, dK, dV, r, N, d,
                                                                              r0 > 0);
  }
  cudaDeviceSynchronize();
}
