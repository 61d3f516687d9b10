// expect: accepted
// judge-command: submit
// Scratch memory the right way: the two statistics (max, sum) live in a buffer cudaMalloc'ed at the start of every
// call and cudaFree'd at its end (cudaFree waits for the kernels that use it). Allocation inside solve() is allowed;
// nothing is left behind, so free memory is the same after every call and the leak check must stay quiet.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define MAX_BLOCKS 1024

// stats[0] = max, stats[1] = sum of exp(x - max)
__global__ void init_stats(float* stats) {
  stats[0] = -INFINITY;
  stats[1] = 0.0f;
}

// atomicMax for floats: non-negative floats order like their bits as signed ints, negative ones in reverse as
// unsigned ints (see submissions/softmax/1_three_pass.cu).
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

__global__ void max_pass(const float* x, int N, float* stats) {
  __shared__ float warp_results[THREADS / 32];
  float m = -INFINITY;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += gridDim.x * THREADS) m = fmaxf(m, x[i]);
  m = warp_max(m);
  if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    m = threadIdx.x < THREADS / 32 ? warp_results[threadIdx.x] : -INFINITY;
    m = warp_max(m);
    if (threadIdx.x == 0) atomic_max_float(&stats[0], m);
  }
}

__global__ void sum_pass(const float* x, int N, float* stats) {
  __shared__ float warp_results[THREADS / 32];
  const float m = stats[0];
  float s = 0.0f;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += gridDim.x * THREADS) s += expf(x[i] - m);
  s = warp_sum(s);
  if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < THREADS / 32 ? warp_results[threadIdx.x] : 0.0f;
    s = warp_sum(s);
    if (threadIdx.x == 0) atomicAdd(&stats[1], s);
  }
}

__global__ void normalize_pass(const float* x, float* y, int N, const float* stats) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) y[i] = expf(x[i] - stats[0]) / stats[1];
}

// The three passes, in order, on one stream.
void softmax(const float* input, float* output, int N, float* stats, cudaStream_t stream) {
  const int blocks = (N + THREADS - 1) / THREADS;
  const int reduce_blocks = blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS;
  init_stats<<<1, 1, 0, stream>>>(stats);
  max_pass<<<reduce_blocks, THREADS, 0, stream>>>(input, N, stats);
  sum_pass<<<reduce_blocks, THREADS, 0, stream>>>(input, N, stats);
  normalize_pass<<<blocks, THREADS, 0, stream>>>(input, output, N, stats);
}

extern "C" void solve(const float* input, float* output, int N) {
  float* stats = nullptr;
  cudaMalloc(&stats, 2 * sizeof(float));
  softmax(input, output, N, stats, 0);
  cudaFree(stats);
}
