// Rung 3: each row held in registers from its load to its store, so each input element is read once.
// Rung 2 swept every row twice (the online max/sum, then the output), and the second sweep came from L2 at best.
// Here each thread loads its share of the row into registers up front, all loads issued together (a warp per row
// of up to 1,024 floats: 8 float4s per lane; a block per row beyond that: 8 float4s per thread of 256 for 8,192),
// then takes the maximum, turns its values into exp(x - max) in place and sums them, and writes them scaled by
// 1 / sum: 8 bytes of DRAM traffic per element, the least there is. With the whole row at hand there is no need for
// the online rescaling. Rows whose length is not a multiple of 4 (not 16-byte aligned) load scalars; rows longer
// than 16,384 floats, which would not fit, take a block-per-row online kernel that reads them twice.
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>

#define WARP_ROWS 8  // rows per 256-thread block when a warp owns a row

// Maximum / sum over the TPR threads that own a row: a warp (TPR = 32), or the whole block (TPR = blockDim.x).
// With TPR > 32 it holds a barrier: every thread of the block must call it, and each `exchange` array is used once.
template <int TPR>
__device__ float row_max(float v, float* exchange) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if (TPR == 32) return v;
  if (threadIdx.x % 32 == 0) exchange[threadIdx.x / 32] = v;
  __syncthreads();
  v = exchange[0];
  for (int w = 1; w < TPR / 32; ++w) v = fmaxf(v, exchange[w]);
  return v;
}

template <int TPR>
__device__ float row_sum(float v, float* exchange) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (TPR == 32) return v;
  if (threadIdx.x % 32 == 0) exchange[threadIdx.x / 32] = v;
  __syncthreads();
  v = exchange[0];
  for (int w = 1; w < TPR / 32; ++w) v += exchange[w];  // same order in every thread: identical results
  return v;
}

// TPR threads per row (32: a warp per row, WARP_ROWS rows per block; otherwise the block is TPR threads and owns one
// row). Each thread holds V float4s (VEC: N % 4 == 0, 16-byte aligned rows) or V scalars, so rows up to
// TPR * V * (VEC ? 4 : 1) elements fit. Element e of the thread is its (e / W)-th load, W = 4 or 1.
// At most 64 registers (1,024 resident threads per SM), so that at least 4 blocks of 256 (4 x 32 KB rows of the
// 8,192 benchmark, or 32 warps' 4 KB rows of the 1,024 one) are in flight per SM.
template <int TPR, int V, bool VEC>
__global__ void __launch_bounds__(TPR == 32 ? 32 * WARP_ROWS : TPR, TPR == 32 ? 1024 / (32 * WARP_ROWS) : 1024 / TPR)
    softmax_rows_regs(const float* input, float* output, int M, int N) {
  constexpr int W = VEC ? 4 : 1;
  constexpr int E = V * W;  // elements held per thread
  __shared__ float exchange_max[TPR / 32], exchange_sum[TPR / 32];
  const int t = TPR == 32 ? threadIdx.x % 32 : threadIdx.x;
  const long long row = TPR == 32 ? (long long)blockIdx.x * WARP_ROWS + threadIdx.x / 32 : blockIdx.x;
  if (row >= M) return;  // TPR = 32: whole warps only; TPR > 32: never (the grid has M blocks)
  const float* x = input + row * N;
  float* y = output + row * N;
  const int loads = VEC ? N / 4 : N;  // float4s or floats in the row

  float v[E];
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = t + k * TPR;
    if (VEC) {
      float4 q = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);  // exp(-inf - m) = 0: no effect
      if (i < loads) q = reinterpret_cast<const float4*>(x)[i];
      v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
    } else {
      v[k] = i < loads ? x[i] : -INFINITY;
    }
  }

  float m = v[0];
#pragma unroll
  for (int e = 1; e < E; ++e) m = fmaxf(m, v[e]);
  m = row_max<TPR>(m, exchange_max);  // finite: every row has at least one element

  float s = 0.0f;
#pragma unroll
  for (int e = 0; e < E; ++e) {
    v[e] = expf(v[e] - m);
    s += v[e];
  }
  const float inv_sum = 1.0f / row_sum<TPR>(s, exchange_sum);

#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = t + k * TPR;
    if (i < loads) {
      if (VEC)
        reinterpret_cast<float4*>(y)[i] =
            make_float4(v[4 * k] * inv_sum, v[4 * k + 1] * inv_sum, v[4 * k + 2] * inv_sum, v[4 * k + 3] * inv_sum);
      else
        y[i] = v[k] * inv_sum;
    }
  }
}

// Rows too long for registers: one block of LONG_THREADS per row, online (max, sum) sweep, then the output sweep.
#define LONG_THREADS 1024

struct MaxSum {
  float m;  // largest value seen
  float s;  // sum of exp(x - m) over the values seen
};

__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;  // both empty: avoid (-inf) - (-inf) = NaN
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__global__ void __launch_bounds__(LONG_THREADS) softmax_rows_long(const float* input, float* output, int N) {
  __shared__ MaxSum exchange[LONG_THREADS / 32];
  const float* x = input + (size_t)blockIdx.x * N;
  float* y = output + (size_t)blockIdx.x * N;
  MaxSum t = {-INFINITY, 0.0f};
  for (int j = threadIdx.x; j < N; j += LONG_THREADS) {
    const float v = x[j];
    if (v > t.m) {
      t.s = t.s * expf(t.m - v) + 1.0f;  // exp(-inf) = 0 while t is empty
      t.m = v;
    } else {
      t.s += expf(v - t.m);
    }
  }
  for (int offset = 16; offset > 0; offset /= 2)
    t = merge(t, {__shfl_xor_sync(0xffffffffu, t.m, offset), __shfl_xor_sync(0xffffffffu, t.s, offset)});
  if (threadIdx.x % 32 == 0) exchange[threadIdx.x / 32] = t;
  __syncthreads();
  t = exchange[0];
  for (int w = 1; w < LONG_THREADS / 32; ++w) t = merge(t, exchange[w]);
  const float inv_sum = 1.0f / t.s;
  for (int j = threadIdx.x; j < N; j += LONG_THREADS) y[j] = expf(x[j] - t.m) * inv_sum;
}

template <int TPR, int V, bool VEC>
static void launch(const float* input, float* output, int M, int N) {
  if (TPR == 32)
    softmax_rows_regs<TPR, V, VEC><<<(M + WARP_ROWS - 1) / WARP_ROWS, 32 * WARP_ROWS>>>(input, output, M, N);
  else
    softmax_rows_regs<TPR, V, VEC><<<M, TPR>>>(input, output, M, N);
}

extern "C" void solve(const float* input, float* output, int M, int N) {
  const bool vec4 = N % 4 == 0 && (uintptr_t)input % 16 == 0 && (uintptr_t)output % 16 == 0;
  if (vec4) {
    if (N <= 128)
      launch<32, 1, true>(input, output, M, N);
    else if (N <= 256)
      launch<32, 2, true>(input, output, M, N);
    else if (N <= 512)
      launch<32, 4, true>(input, output, M, N);
    else if (N <= 1024)
      launch<32, 8, true>(input, output, M, N);  // benchmark 32768 x 1024
    else if (N <= 2048)
      launch<128, 4, true>(input, output, M, N);
    else if (N <= 4096)
      launch<256, 4, true>(input, output, M, N);
    else if (N <= 8192)
      launch<256, 8, true>(input, output, M, N);  // benchmark 4096 x 8192
    else if (N <= 16384)
      launch<512, 8, true>(input, output, M, N);
    else
      softmax_rows_long<<<M, LONG_THREADS>>>(input, output, N);
  } else {
    if (N <= 32)
      launch<32, 1, false>(input, output, M, N);
    else if (N <= 128)
      launch<32, 4, false>(input, output, M, N);
    else if (N <= 512)
      launch<32, 16, false>(input, output, M, N);
    else if (N <= 1024)
      launch<32, 32, false>(input, output, M, N);
    else if (N <= 4096)
      launch<256, 16, false>(input, output, M, N);
    else if (N <= 16384)
      launch<512, 32, false>(input, output, M, N);
    else
      softmax_rows_long<<<M, LONG_THREADS>>>(input, output, N);
  }
  cudaDeviceSynchronize();
}
