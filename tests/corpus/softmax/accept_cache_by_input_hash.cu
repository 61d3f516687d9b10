// expect: accepted
// judge-command: submit
// A cache keyed on the input's content: it hashes 256 sampled input values (and N) and, when the hash was seen on the
// previous call, copies the saved output instead of computing. Against a judge that times the same inputs over and
// over, every timed call would be a hit and a plain memcpy. `judge submit` gives every timed call fresh inputs, so the
// cache never hits and every call computes: correct, and it gains nothing. (A hit could only come from identical
// samples of different inputs, which random inputs never produce.)
#include <cuda_runtime.h>

#include <math.h>
#include <cstdint>

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

#define SAMPLES 256

__global__ void gather_samples(const float* x, int N, int count, unsigned* out) {
  const int i = threadIdx.x;
  if (i < count) out[i] = __float_as_uint(x[static_cast<long long>(i) * N / count]);
}

extern "C" void solve(const float* input, float* output, int N) {
  static unsigned* samples = nullptr;
  static float* stats = nullptr;
  static float* saved = nullptr;
  static size_t saved_capacity = 0;
  static std::uint64_t saved_hash = 0;
  static int saved_n = -1;
  if (!samples) {
    cudaMalloc(&samples, SAMPLES * sizeof(unsigned));
    cudaMalloc(&stats, 2 * sizeof(float));
  }
  const int count = N < SAMPLES ? N : SAMPLES;
  gather_samples<<<1, SAMPLES>>>(input, N, count, samples);
  unsigned host[SAMPLES];
  cudaMemcpy(host, samples, count * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::uint64_t hash = 1469598103934665603ull ^ static_cast<std::uint64_t>(N);  // FNV-1a
  for (int i = 0; i < count; ++i) hash = (hash ^ host[i]) * 1099511628211ull;

  const size_t bytes = sizeof(float) * static_cast<size_t>(N);
  if (saved && saved_n == N && saved_hash == hash) {  // "seen these inputs before"
    cudaMemcpy(output, saved, bytes, cudaMemcpyDeviceToDevice);
    return;
  }
  softmax(input, output, N, stats, 0);
  if (bytes > saved_capacity) {
    cudaFree(saved);
    cudaMalloc(&saved, bytes);
    saved_capacity = bytes;
  }
  cudaMemcpy(saved, output, bytes, cudaMemcpyDeviceToDevice);
  saved_hash = hash, saved_n = N;
  cudaDeviceSynchronize();
}
