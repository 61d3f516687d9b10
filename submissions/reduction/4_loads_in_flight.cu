// Rung 4: 4 independent float4 loads (64 bytes) in flight per thread, each into its own accumulator.
// nvcc already unrolls rung 3's loop by 4 on its own, but behind a peeled remainder loop, and its 4 partial sums
// chain through one accumulator. Here each iteration issues its 4 loads before any add, each load feeds its own
// accumulator (no add waits for another), and the fewer than 4 float4s left per thread come afterwards; the grid is
// one resident wave (SMs x blocks per SM, from the occupancy API). A small step: rung 3 was already near the
// bandwidth, and this one makes the bytes in flight explicit instead of leaving them to the compiler. Blocks still
// combine through one atomicAdd each into an output zeroed by cudaMemset (rung 5 removes both).
#include <cstdint>

#include <cuda_runtime.h>

#define THREADS 256
#define UNROLL 4  // float4 loads in flight per thread, one accumulator each

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

// n4: how many whole float4s to read as such (0 when the input is misaligned); elements from 4 * n4 on are scalar.
__global__ void __launch_bounds__(THREADS) reduce_unrolled(const float* input, float* output, int N, int n4) {
  __shared__ float warp_totals[THREADS / 32];
  const float4* in4 = reinterpret_cast<const float4*>(input);
  const int stride = gridDim.x * THREADS;
  float acc[UNROLL];
#pragma unroll
  for (int k = 0; k < UNROLL; ++k) acc[k] = 0.0f;
  // This thread's float4s are i, i + stride, i + 2 * stride, ...: UNROLL at a time while all UNROLL exist (each load
  // of the group is coalesced across the warp), then the remaining 0 to UNROLL - 1 one at a time.
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
  if (warp == 0) {
    sum = (lane < THREADS / 32) ? warp_totals[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) atomicAdd(output, sum);
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_unrolled, THREADS, 0);
  if (per_sm < 1) per_sm = 1;
  const bool aligned = reinterpret_cast<std::uintptr_t>(input) % 16 == 0;
  const int n4 = aligned ? N / 4 : 0;
  const int work = n4 > 0 ? n4 : N;  // first-pass loop iterations of the whole grid
  int blocks = (work + THREADS - 1) / THREADS;
  if (blocks > sms * per_sm) blocks = sms * per_sm;
  if (blocks < 1) blocks = 1;
  cudaMemset(output, 0, sizeof(float));  // same (default) stream as the kernel, so it completes first
  reduce_unrolled<<<blocks, THREADS>>>(input, output, N, n4);
  cudaDeviceSynchronize();
}
