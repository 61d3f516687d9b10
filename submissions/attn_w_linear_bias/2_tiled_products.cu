// Rung 2: both products as tiled matrix multiplications; the softmax between them as in rung 1.
// Rung 1 computed every logit and every output from global memory: each Q, K, V and P value was fetched from cache
// once per thread that used it (d up to 1024 makes the two products nearly all of the work). Here a block of 256
// threads owns a 64 x 64 tile of the result: it stages 16-wide slices of its 64 rows of A and 64 columns of B in
// shared memory, and each thread accumulates 4 x 4 results in registers, so a value read from shared memory feeds
// 4 FMAs and one read from global memory feeds 64.
// The bias is also shifted: softmax does not change when a row gains a constant, and alpha * (i - j) =
// alpha * (i - j*) + alpha * (j* - j) with j* the key the bias favours (0 if alpha >= 0, else N - 1). Dropping the
// first term leaves logits whose largest bias is 0, where float keeps them to about 1e-7 instead of 6e-5 near 2047.
#include <cuda_runtime.h>

#include <math.h>

#define BM 64      // rows of the result per block
#define BN 64      // columns of the result per block
#define BK 16      // slice of the inner dimension staged per step
#define TM 4       // rows per thread: ty, ty + 16, ty + 32, ty + 48
#define TN 4       // columns per thread: tx, tx + 16, tx + 32, tx + 48 (a half warp writes 16 neighbours)
#define THREADS 256

// acc[r][c] += sum over k of A[row0 + ty + 16r][k] * B(k, col0 + tx + 16c) for the block's tile, where A is
// rows x inner row-major and B(k, c) is B[c * inner + k] (B_TRANSPOSED: a row-major cols x inner matrix, K in Q K^T)
// or B[k * cols + c] (a row-major inner x cols matrix, V in P V). Out-of-range elements are staged as zeros.
template <bool B_TRANSPOSED>
__device__ void tile_product(const float* A, const float* B, int rows, int cols, int inner, float acc[TM][TN]) {
  __shared__ float As[BK][BM + 4];  // As[k][r] = A[row0 + r][k0 + k]
  __shared__ float Bs[BK][BN + 4];  // Bs[k][c] = B(k0 + k, col0 + c)
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  for (int r = 0; r < TM; ++r)
    for (int c = 0; c < TN; ++c) acc[r][c] = 0.0f;
  for (int k0 = 0; k0 < inner; k0 += BK) {
    for (int e = tid; e < BM * BK; e += THREADS) {
      const int r = e / BK, k = e % BK;  // 16 neighbouring threads read 16 neighbouring floats of a row
      As[k][r] = row0 + r < rows && k0 + k < inner ? A[(size_t)(row0 + r) * inner + k0 + k] : 0.0f;
    }
    for (int e = tid; e < BN * BK; e += THREADS) {
      if (B_TRANSPOSED) {
        const int c = e / BK, k = e % BK;
        Bs[k][c] = col0 + c < cols && k0 + k < inner ? B[(size_t)(col0 + c) * inner + k0 + k] : 0.0f;
      } else {
        const int k = e / BN, c = e % BN;
        Bs[k][c] = k0 + k < inner && col0 + c < cols ? B[(size_t)(k0 + k) * cols + col0 + c] : 0.0f;
      }
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
      for (int r = 0; r < TM; ++r) a[r] = As[k][ty + 16 * r];
      for (int c = 0; c < TN; ++c) b[c] = Bs[k][tx + 16 * c];
      for (int r = 0; r < TM; ++r)
        for (int c = 0; c < TN; ++c) acc[r][c] = fmaf(a[r], b[c], acc[r][c]);
    }
    __syncthreads();  // the slices are consumed before the next step overwrites them
  }
}

// L (M x N) = Q K^T / sqrt(d) + alpha * (j* - j), the logits shifted by a constant per row (see the top).
__global__ void __launch_bounds__(THREADS) logits_kernel(const float* Q, const float* K, float* L, int M, int N, int d,
                                                         float scale, float alpha) {
  float acc[TM][TN];
  tile_product<true>(Q, K, M, N, d, acc);
  const int favoured = alpha >= 0.0f ? 0 : N - 1;  // j*: the key with the largest bias in every row
  for (int r = 0; r < TM; ++r) {
    const int i = blockIdx.y * BM + threadIdx.x / 16 + 16 * r;
    for (int c = 0; c < TN; ++c) {
      const int j = blockIdx.x * BN + threadIdx.x % 16 + 16 * c;
      if (i < M && j < N) L[(size_t)i * N + j] = acc[r][c] * scale + alpha * (float)(favoured - j);
    }
  }
}

// out (M x d) = P (M x N) V (N x d).
__global__ void __launch_bounds__(THREADS) output_kernel(const float* P, const float* V, float* out, int M, int N,
                                                         int d) {
  float acc[TM][TN];
  tile_product<false>(P, V, M, d, N, acc);
  for (int r = 0; r < TM; ++r) {
    const int i = blockIdx.y * BM + threadIdx.x / 16 + 16 * r;
    for (int c = 0; c < TN; ++c) {
      const int col = blockIdx.x * BN + threadIdx.x % 16 + 16 * c;
      if (i < M && col < d) out[(size_t)i * d + col] = acc[r][c];
    }
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

// One block per row of L: P = exp(L - max) / sum, in place.
__global__ void softmax_rows_kernel(float* L, int N) {
  __shared__ float shared[THREADS];
  float* row = L + (size_t)blockIdx.x * N;
  float m = -INFINITY;
  for (int j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, row[j]);
  m = block_reduce<true>(m, shared);
  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) {
    const float e = expf(row[j] - m);
    row[j] = e;
    sum += e;
  }
  sum = block_reduce<false>(sum, shared);
  const float inv = 1.0f / sum;
  for (int j = threadIdx.x; j < N; j += THREADS) row[j] *= inv;
}

// Q is M x d, K and V are N x d, output is M x d, all row-major device pointers.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d,
                      float alpha) {
  static float* logits = nullptr;  // kept between calls, grown when a larger M x N is needed
  static size_t capacity = 0;
  const size_t need = (size_t)M * N;
  if (need > capacity) {
    cudaFree(logits);
    cudaMalloc(&logits, need * sizeof(float));
    capacity = need;
  }
  const float scale = 1.0f / sqrtf((float)d);
  logits_kernel<<<dim3((N + BN - 1) / BN, (M + BM - 1) / BM), THREADS>>>(Q, K, logits, M, N, d, scale, alpha);
  softmax_rows_kernel<<<M, THREADS>>>(logits, N);
  output_kernel<<<dim3((d + BN - 1) / BN, (M + BM - 1) / BM), THREADS>>>(logits, V, output, M, N, d);
  cudaDeviceSynchronize();
}
