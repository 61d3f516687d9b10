// Rung 2: a grid just large enough to fill the GPU (8 blocks per SM), each thread walking the samples with a
// grid-stride loop and 16-byte float4 loads, so it keeps several loads in flight and sums hundreds of samples in a
// register. Warp shuffles replace the shared-memory tree, and there is one atomicAdd per block instead of one per 256
// samples. The n_samples % 4 tail is read one by one; a misaligned input takes the scalar loop for everything.
#include <cstdint>

#include <cuda_runtime.h>

#define THREADS 256

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

// n4: how many whole float4s to read as such (0 when the input is misaligned); samples from 4 * n4 on are scalar.
__global__ void integrate_vec4(const float* y, float* result, float scale, int n, int n4) {
  __shared__ float warp_totals[THREADS / 32];
  const int first = blockIdx.x * THREADS + threadIdx.x;
  const int stride = gridDim.x * THREADS;
  const float4* y4 = reinterpret_cast<const float4*>(y);
  float sum = 0.0f;
  for (int i = first; i < n4; i += stride) {
    const float4 v = y4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  for (int i = 4 * n4 + first; i < n; i += stride) sum += y[i];
  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_totals[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < THREADS / 32 ? warp_totals[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) atomicAdd(result, sum * scale);
  }
}

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const bool aligned = reinterpret_cast<std::uintptr_t>(y_samples) % 16 == 0;
  const int n4 = aligned ? n_samples / 4 : 0;
  const int items = aligned ? (n4 > 0 ? n4 : 1) : n_samples;  // loop iterations the grid has to cover
  int blocks = sms * 8;
  const int needed = (items + THREADS - 1) / THREADS;
  if (blocks > needed) blocks = needed;
  if (blocks < 1) blocks = 1;
  cudaMemset(result, 0, sizeof(float));
  integrate_vec4<<<blocks, THREADS>>>(y_samples, result, (b - a) / n_samples, n_samples, n4);
  cudaDeviceSynchronize();
}
