// Rung 2: a grid just large enough to fill the GPU, each thread walking the vectors with a grid-stride loop of
// 16-byte loads (8 halves, two loads of each input in flight), converting half2 pairs to float2 and adding the
// products in float registers. Warp shuffles replace the shared-memory tree, and instead of atomics each block writes
// its sum to a slot; the last block to finish (a ticket counter) adds the slots in a fixed order and writes the half
// result, so one kernel launch does everything and the result has the same bits on every run.
#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_BLOCKS 2048

__device__ float block_sums[MAX_BLOCKS];
__device__ unsigned int blocks_done = 0;  // back to 0 at the end of every call

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

// The float sum of v over the block, complete in thread 0.
__device__ float block_sum(float v) {
  __shared__ float warp_totals[THREADS / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  v = threadIdx.x < THREADS / 32 ? warp_totals[threadIdx.x] : 0.0f;
  return warp == 0 ? warp_sum(v) : 0.0f;
}

__device__ float dot8(uint4 a, uint4 b) {
  const half2* ha = reinterpret_cast<const half2*>(&a);
  const half2* hb = reinterpret_cast<const half2*>(&b);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const float2 fa = __half22float2(ha[k]), fb = __half22float2(hb[k]);
    s = fmaf(fa.x, fb.x, s);
    s = fmaf(fa.y, fb.y, s);
  }
  return s;
}

// n8: how many whole 16-byte vectors to read as such (0 when an input is misaligned); elements from 8 * n8 on are
// read one by one.
__global__ void dot_vec8(const half* A, const half* B, half* result, int N, int n8) {
  const int first = blockIdx.x * THREADS + threadIdx.x;
  const int stride = gridDim.x * THREADS;
  const uint4* A8 = reinterpret_cast<const uint4*>(A);
  const uint4* B8 = reinterpret_cast<const uint4*>(B);
  float sum = 0.0f;
  int i = first;
  for (; i + stride < n8; i += 2 * stride) {  // two vectors of each input in flight per thread
    const uint4 a0 = A8[i], b0 = B8[i], a1 = A8[i + stride], b1 = B8[i + stride];
    sum += dot8(a0, b0) + dot8(a1, b1);
  }
  if (i < n8) sum += dot8(A8[i], B8[i]);
  for (int j = 8 * n8 + first; j < N; j += stride) sum = fmaf(__half2float(A[j]), __half2float(B[j]), sum);

  sum = block_sum(sum);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = sum;
    __threadfence();  // the slot is visible to every block before the ticket is taken
    last = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  float total = 0.0f;
  for (int b = threadIdx.x; b < gridDim.x; b += THREADS) total += __ldcg(&block_sums[b]);  // L2, not a stale L1
  total = block_sum(total);
  if (threadIdx.x == 0) {
    result[0] = __float2half(total);
    blocks_done = 0;
  }
}

extern "C" void solve(const half* A, const half* B, half* result, int N) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const bool aligned = (reinterpret_cast<std::uintptr_t>(A) | reinterpret_cast<std::uintptr_t>(B)) % 16 == 0;
  const int n8 = aligned ? N / 8 : 0;
  const int items = n8 > 0 ? n8 : N;  // loop iterations the grid has to cover
  int blocks = sms * 8;               // 8 blocks of 256: a full H100/H200 SM
  const int needed = (items + THREADS - 1) / THREADS;
  if (blocks > needed) blocks = needed;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  if (blocks < 1) blocks = 1;
  dot_vec8<<<blocks, THREADS>>>(A, B, result, N, n8);
  cudaDeviceSynchronize();
}
