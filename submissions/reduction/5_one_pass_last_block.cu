// Rung 5: one launch, no memset or float atomics: the last block adds the block sums in a fixed order.
// Rung 4 needed a cudaMemset before the kernel and summed the blocks with atomicAdd in whatever order they finished.
// Here each block stores its sum in a __device__ array, makes it visible (__threadfence) and takes a ticket from an
// atomic counter; the block that draws the last ticket adds all the sums, in block order and in double, and writes
// output[0] itself. One launch instead of two, and the same bits on every run. atomicInc wraps the counter back to 0
// when the last ticket is drawn, so the next call starts clean. The reading loop is rung 4's.
#include <cstdint>

#include <cuda_runtime.h>

#define THREADS 256
#define UNROLL 4         // float4 loads in flight per thread, one accumulator each
#define MAX_BLOCKS 4096  // the grid is one resident wave: 132 SMs x 8 blocks on an H100

__device__ float g_block_sums[MAX_BLOCKS];
__device__ unsigned int g_blocks_done = 0;  // tickets drawn in this call; back to 0 after the last one

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

__device__ double warp_sum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

// n4: how many whole float4s to read as such (0 when the input is misaligned); elements from 4 * n4 on are scalar.
__global__ void __launch_bounds__(THREADS) reduce_last_block(const float* input, float* output, int N, int n4) {
  __shared__ float warp_totals[THREADS / 32];
  __shared__ double warp_totals_d[THREADS / 32];
  __shared__ bool am_last;
  const float4* in4 = reinterpret_cast<const float4*>(input);
  const int stride = gridDim.x * THREADS;
  float acc[UNROLL];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k) acc[k] = 0.0f;
  int i = blockIdx.x * THREADS + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
    float4 v[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) v[k] = in4[i + k * stride];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) acc[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  for (; i < n4; i += stride) {
    const float4 v = in4[i];
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  // Elements from 4 * n4 on: the 0 to 3 left over, or all of them when the input is misaligned (n4 = 0).
  for (int j = 4 * n4 + blockIdx.x * THREADS + threadIdx.x; j < N; j += stride) acc[1] += input[j];

  float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_totals[warp] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float block_total = 0.0f;
    for (int w = 0; w < THREADS / 32; ++w) block_total += warp_totals[w];
    g_block_sums[blockIdx.x] = block_total;
    __threadfence();  // the sum is visible to every block before the ticket says it is there
    am_last = atomicInc(&g_blocks_done, gridDim.x - 1) == gridDim.x - 1;  // the last ticket also resets to 0
  }
  __syncthreads();
  if (!am_last) return;  // uniform across the block: am_last is one shared value

  // The last block: every other block's sum was stored before its ticket was drawn.
  __threadfence();
  double total = 0.0;
  for (int b = threadIdx.x; b < gridDim.x; b += THREADS) total += __ldcg(&g_block_sums[b]);  // L2, not a stale L1
  total = warp_sum(total);
  if (lane == 0) warp_totals_d[warp] = total;
  __syncthreads();
  if (threadIdx.x == 0) {
    double grand = 0.0;
    for (int w = 0; w < THREADS / 32; ++w) grand += warp_totals_d[w];
    output[0] = static_cast<float>(grand);
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_last_block, THREADS, 0);
  if (per_sm < 1) per_sm = 1;
  const bool aligned = reinterpret_cast<std::uintptr_t>(input) % 16 == 0;
  const int n4 = aligned ? N / 4 : 0;
  const int work = n4 > 0 ? n4 : N;  // first-pass loop iterations of the whole grid
  int blocks = (work + THREADS - 1) / THREADS;
  if (blocks > sms * per_sm) blocks = sms * per_sm;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  if (blocks < 1) blocks = 1;
  reduce_last_block<<<blocks, THREADS>>>(input, output, N, n4);  // no memset: output[0] is written, not added to
  cudaDeviceSynchronize();
}
