// expect: wrong_answer
// expect-message: elements wrong
// Rung 1 made to read float4: each thread takes 4 consecutive elements, and only the N / 4 whole float4s are ever
// looked at. The last N % 4 elements are dropped: when one of them is positive it is missing from out. n1_positive
// (N = 1, nothing but a tail) gets out = [0] instead of [5]; all_positive_4097 loses its last element.
#include <cuda_runtime.h>

#define BLOCK 256
#define WARPS (BLOCK / 32)
#define SCAN_THREADS 1024

__device__ unsigned keep_bits(float4 v) {
  return (v.x > 0.0f) | (v.y > 0.0f) << 1 | (v.z > 0.0f) << 2 | (v.w > 0.0f) << 3;
}

// counts[b] = kept elements among block b's 256 float4s.
__global__ void count_kernel(const float4* A4, int n4, int* counts) {
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const unsigned bits = i < n4 ? keep_bits(A4[i]) : 0u;  // the bug: elements 4 * n4 .. N - 1 are never read
  const int c = __syncthreads_count(bits & 1u) + __syncthreads_count(bits & 2u) + __syncthreads_count(bits & 4u) +
                __syncthreads_count(bits & 8u);
  if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

// One block: offsets[b] = counts[0] + ... + counts[b - 1], offsets[blocks] = the total.
__global__ void scan_counts(const int* counts, int* offsets, int blocks) {
  __shared__ int buf[SCAN_THREADS];
  __shared__ int carry;
  if (threadIdx.x == 0) carry = 0;
  for (int base = 0; base < blocks; base += SCAN_THREADS) {
    const int i = base + threadIdx.x;
    const int v = i < blocks ? counts[i] : 0;
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int d = 1; d < SCAN_THREADS; d *= 2) {
      const int add = threadIdx.x >= d ? buf[threadIdx.x - d] : 0;
      __syncthreads();
      buf[threadIdx.x] += add;
      __syncthreads();
    }
    if (i < blocks) offsets[i] = carry + buf[threadIdx.x] - v;
    __syncthreads();
    if (threadIdx.x == SCAN_THREADS - 1) carry += buf[SCAN_THREADS - 1];
    __syncthreads();
  }
  if (threadIdx.x == 0) offsets[blocks] = carry;
}

__global__ void scatter_kernel(const float4* A4, int n4, const int* offsets, float* out) {
  __shared__ int warp_incl[WARPS];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float4 v = i < n4 ? A4[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  const unsigned bits = keep_bits(v);
  const int c = __popc(bits);
  int incl = c;
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += up;
  }
  if (lane == 31) warp_incl[warp] = incl;
  __syncthreads();
  int at = offsets[blockIdx.x] + incl - c;
  for (int w = 0; w < warp; ++w) at += warp_incl[w];
  if (bits & 1u) out[at++] = v.x;
  if (bits & 2u) out[at++] = v.y;
  if (bits & 4u) out[at++] = v.z;
  if (bits & 8u) out[at++] = v.w;
}

extern "C" void solve(const float* A, int N, float* out) {
  const int n4 = N / 4;
  const int blocks = (N + 4 * BLOCK - 1) / (4 * BLOCK);
  static int* scratch = nullptr;
  static int capacity = 0;
  if (2 * blocks + 1 > capacity) {
    cudaFree(scratch);
    capacity = 2 * blocks + 1;
    cudaMalloc(&scratch, capacity * sizeof(int));
  }
  const float4* A4 = reinterpret_cast<const float4*>(A);
  // out arrives zeroed (as on LeetGPU), so only the kept elements are written
  count_kernel<<<blocks, BLOCK>>>(A4, n4, scratch);
  scan_counts<<<1, SCAN_THREADS>>>(scratch, scratch + blocks, blocks);
  scatter_kernel<<<blocks, BLOCK>>>(A4, n4, scratch + blocks, out);
  cudaDeviceSynchronize();
}
