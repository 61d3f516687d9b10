// Rung 3: one cooperative launch; values stay in registers while the last block combines the sums.
// At N = 100,000 the data is 400 KB each way, 0.3 us at 3 TB/s: the time is launch latency and DRAM round trips,
// and rung 2 paid two launches, two input reads and the gap between the kernels. Here one kernel does it all. Each
// thread loads its float4 (one per thread at N = 100,000: 98 blocks of 256) and keeps it in registers; blocks store
// their sums of squares in a __device__ array and draw a ticket from an atomic counter; the block with the last
// ticket adds the sums in block order, in double, and publishes gamma / rms with a generation counter, on which the
// other blocks wait; then every thread scales the values it holds and writes them. The input is read once.
// Waiting inside a kernel for other blocks needs every block resident at once, which a plain launch does not promise:
// cudaLaunchCooperativeKernel does (it refuses a grid larger than fits), so the grid is capped by the occupancy API.
// Floor at this size: one launch, one DRAM read latency, one barrier, the stores, i.e. a few microseconds.
// Nsight Compute on an H100 (clocks locked to base): 7.2 us, DRAM 1.7% and SM 2.9% of peak, 98 blocks, warps 62% of
// their time waiting at the barrier for the last block's result: latency-bound. Copy bandwidth would move these
// 0.8 MB in 0.27 us, so no kernel reaches a bandwidth target here; rung 3 is 7x faster than rung 1 by paying fewer
// launches and round trips, which is all this size allows.
#include <cstdint>

#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define HELD 4  // float4s a thread holds in registers: N up to 16 x the grid's threads (2.7M on an H100) stays on chip
#define MAX_BLOCKS 4096  // more than can be co-resident (132 SMs x 5 blocks of 256 at 48 registers on an H100)

__device__ float g_block_squares[MAX_BLOCKS];
__device__ unsigned int g_arrived = 0;     // tickets drawn in this call; atomicInc takes it back to 0 at the last
__device__ unsigned int g_generation = 0;  // bumped once per call, after g_scale is written
__device__ float g_scale;                  // gamma / rms of this call

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ double warp_sum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// n4: float4s read as such (0 when a pointer is misaligned); elements from 4 * n4 on are read one by one.
__global__ void __launch_bounds__(THREADS)
    rms_norm_one_kernel(const float* input, float gamma, float beta, float* output, int N, float eps, int n4) {
  __shared__ float warp_sums[THREADS / 32];
  __shared__ double warp_sums_d[THREADS / 32];
  __shared__ bool am_last;
  __shared__ float scale_shared;
  const float4* in4 = reinterpret_cast<const float4*>(input);
  float4* out4 = reinterpret_cast<float4*>(output);
  const int first = blockIdx.x * THREADS + threadIdx.x;
  const int stride = gridDim.x * THREADS;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // This call's generation, read before this block draws its ticket, so before the last block can bump it.
  unsigned int generation = 0;
  if (threadIdx.x == 0) generation = *reinterpret_cast<volatile unsigned int*>(&g_generation);

  // Pass 1: the squares. The first HELD float4s of the thread stay in registers.
  float4 held[HELD];
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < HELD; ++k) {
    const int q = first + k * stride;
    held[k] = q < n4 ? in4[q] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    acc += (held[k].x * held[k].x + held[k].y * held[k].y) + (held[k].z * held[k].z + held[k].w * held[k].w);
  }
  // Beyond what the registers hold (N > 16 x the grid's threads; never within N <= 100,000): read twice.
  for (int q = first + HELD * stride; q < n4; q += stride) {
    const float4 v = in4[q];
    acc += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
  }
  for (int i = 4 * n4 + first; i < N; i += stride) acc += input[i] * input[i];  // 0 to 3 left over (or all)

  acc = warp_sum(acc);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float block_total = 0.0f;
    for (int w = 0; w < THREADS / 32; ++w) block_total += warp_sums[w];
    g_block_squares[blockIdx.x] = block_total;
    __threadfence();  // (and orders the read of g_generation above before the ticket)
    am_last = atomicInc(&g_arrived, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();

  if (am_last) {
    // Every block stored its sum before drawing its ticket: add them all, in block order, in double.
    __threadfence();
    double total = 0.0;
    for (int b = threadIdx.x; b < gridDim.x; b += THREADS) total += __ldcg(&g_block_squares[b]);
    total = warp_sum(total);
    if (lane == 0) warp_sums_d[warp] = total;
    __syncthreads();
    if (threadIdx.x == 0) {
      double squares = 0.0;
      for (int w = 0; w < THREADS / 32; ++w) squares += warp_sums_d[w];
      const float scale = static_cast<float>(gamma / sqrt(squares / N + eps));
      scale_shared = scale;
      g_scale = scale;
      __threadfence();  // g_scale is visible everywhere before the new generation is
      atomicAdd(&g_generation, 1u);
    }
  } else if (threadIdx.x == 0) {
    // Wait for the last block. Safe only because the cooperative launch keeps every block resident.
    while (*reinterpret_cast<volatile unsigned int*>(&g_generation) == generation) {
    }
    __threadfence();
    scale_shared = __ldcg(&g_scale);
  }
  __syncthreads();
  const float scale = scale_shared;

  // Pass 2: scale what the registers hold; anything beyond them is read again.
#pragma unroll
  for (int k = 0; k < HELD; ++k) {
    const int q = first + k * stride;
    if (q < n4)
      out4[q] = make_float4(held[k].x * scale + beta, held[k].y * scale + beta, held[k].z * scale + beta,
                            held[k].w * scale + beta);
  }
  for (int q = first + HELD * stride; q < n4; q += stride) {
    const float4 v = in4[q];
    out4[q] = make_float4(v.x * scale + beta, v.y * scale + beta, v.z * scale + beta, v.w * scale + beta);
  }
  for (int i = 4 * n4 + first; i < N; i += stride) output[i] = input[i] * scale + beta;
}

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  const bool vec4 = (uintptr_t)input % 16 == 0 && (uintptr_t)output % 16 == 0;
  int n4 = vec4 ? N / 4 : 0;
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rms_norm_one_kernel, THREADS, 0);
  if (per_sm < 1) per_sm = 1;
  // One float4 (or one scalar, when misaligned) per thread, as long as the grid stays co-resident.
  const int work = n4 > 0 ? n4 : N;
  int blocks = (work + THREADS - 1) / THREADS;
  if (blocks > sms * per_sm) blocks = sms * per_sm;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  if (blocks < 1) blocks = 1;
  void* args[] = {(void*)&input, (void*)&gamma, (void*)&beta, (void*)&output, (void*)&N, (void*)&eps, (void*)&n4};
  cudaLaunchCooperativeKernel((const void*)rms_norm_one_kernel, dim3(blocks), dim3(THREADS), args, 0, 0);
  cudaDeviceSynchronize();
}
