// Rung 1: three passes over the input: the maximum, the sum of exp(x - max), then output = exp(x - max) / sum.
// Subtracting the maximum is what makes it correct: exp(x) overflows float for x > 88.7, and for very negative
// inputs every exp(x) underflows to 0 (then 0/0 = NaN); after the shift the largest term is exp(0) = 1.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define MAX_BLOCKS 1024  // for the two reductions: enough to fill the GPU, few atomics

__device__ float g_max;  // results of passes 1 and 2, read by the later passes
__device__ float g_sum;

// atomicMax for floats. Non-negative floats order like their bit patterns read as signed ints; negative floats
// order in reverse of their bit patterns read as unsigned ints. The sign bit decides, so -0.0f takes the second
// path (as a signed int it would be INT_MIN and never win). No NaN inputs here.
__device__ void atomic_max_float(float* addr, float v) {
  if (__float_as_int(v) >= 0)
    atomicMax(reinterpret_cast<int*>(addr), __float_as_int(v));
  else
    atomicMin(reinterpret_cast<unsigned int*>(addr), __float_as_uint(v));
}

__device__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void max_pass(const float* x, int N) {
  __shared__ float warp_results[THREADS / 32];
  float m = -INFINITY;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += gridDim.x * THREADS) m = fmaxf(m, x[i]);
  m = warp_max(m);
  if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    m = threadIdx.x < THREADS / 32 ? warp_results[threadIdx.x] : -INFINITY;
    m = warp_max(m);
    if (threadIdx.x == 0) atomic_max_float(&g_max, m);
  }
}

__global__ void sum_pass(const float* x, int N) {
  __shared__ float warp_results[THREADS / 32];
  const float m = g_max;
  float s = 0.0f;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += gridDim.x * THREADS) s += expf(x[i] - m);
  s = warp_sum(s);
  if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < THREADS / 32 ? warp_results[threadIdx.x] : 0.0f;
    s = warp_sum(s);
    if (threadIdx.x == 0) atomicAdd(&g_sum, s);
  }
}

__global__ void normalize_pass(const float* x, float* y, int N) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) y[i] = expf(x[i] - g_max) / g_sum;
}

extern "C" void solve(const float* input, float* output, int N) {
  const float neg_inf = -INFINITY, zero = 0.0f;
  cudaMemcpyToSymbol(g_max, &neg_inf, sizeof(float));  // reset on every call: solve() may be called many times
  cudaMemcpyToSymbol(g_sum, &zero, sizeof(float));
  const int blocks = (N + THREADS - 1) / THREADS;
  const int reduce_blocks = blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS;
  max_pass<<<reduce_blocks, THREADS>>>(input, N);
  sum_pass<<<reduce_blocks, THREADS>>>(input, N);
  normalize_pass<<<blocks, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
