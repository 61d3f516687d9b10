// Rung 1: the definition, one step per kernel, with the M x N logits in a scratch buffer (16 MiB at most: M, N <= 2048).
//   1. logits: one thread per (query i, key j) computes L[i][j] = dot(Q[i], K[j]) / sqrt(d) + alpha * (i - j);
//   2. softmax: one block per row of L finds the row's maximum, sums exp(L - max) and divides, in place;
//   3. output: one thread per (query i, column c) computes sum over j of P[i][j] * V[j][c].
// The bias alone reaches |alpha| * 2047 in magnitude, so subtracting the row maximum is what keeps expf in range.
#include <cuda_runtime.h>

#include <math.h>

#define TILE 16
#define THREADS 256

__global__ void logits_kernel(const float* Q, const float* K, float* L, int M, int N, int d, float scale, float alpha) {
  const int j = blockIdx.x * TILE + threadIdx.x;  // key
  const int i = blockIdx.y * TILE + threadIdx.y;  // query
  if (i < M && j < N) {
    float acc = 0.0f;
    for (int c = 0; c < d; ++c) acc += Q[(size_t)i * d + c] * K[(size_t)j * d + c];
    L[(size_t)i * N + j] = acc * scale + alpha * (float)(i - j);  // i - j is negative for keys past the query's row
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

__global__ void softmax_rows_kernel(float* L, int N) {
  __shared__ float shared[THREADS];
  float* row = L + (size_t)blockIdx.x * N;
  float m = -INFINITY;  // not 0: a row whose logits are all negative has a negative maximum
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

__global__ void output_kernel(const float* P, const float* V, float* out, int M, int N, int d) {
  const int c = blockIdx.x * TILE + threadIdx.x;  // column of the output
  const int i = blockIdx.y * TILE + threadIdx.y;  // query
  if (i < M && c < d) {
    float acc = 0.0f;
    for (int j = 0; j < N; ++j) acc += P[(size_t)i * N + j] * V[(size_t)j * d + c];
    out[(size_t)i * d + c] = acc;
  }
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
  const dim3 threads(TILE, TILE);
  logits_kernel<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), threads>>>(Q, K, logits, M, N, d, scale, alpha);
  softmax_rows_kernel<<<M, THREADS>>>(logits, N);
  output_kernel<<<dim3((d + TILE - 1) / TILE, (M + TILE - 1) / TILE), threads>>>(logits, V, output, M, N, d);
  cudaDeviceSynchronize();
}
