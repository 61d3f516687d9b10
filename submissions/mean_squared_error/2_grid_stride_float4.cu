// Rung 2: a grid just large enough to fill the GPU (8 blocks per SM), each thread walking both arrays with a
// grid-stride loop and 16-byte float4 loads, so it keeps several loads in flight and sums a few hundred squares in a
// register. Warp shuffles replace the shared-memory tree, and there is one atomicAdd per block instead of one per 256
// elements. The N % 4 tail is read one by one; misaligned inputs take the scalar loop for everything.
#include <cstdint>

#include <cuda_runtime.h>

#define THREADS 256

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

__device__ float sq_diff(float p, float t) {
  const float d = p - t;
  return d * d;
}

// n4: how many whole float4s to read as such (0 when an input is misaligned); elements from 4 * n4 on are scalar.
__global__ void mse_vec4(const float* predictions, const float* targets, float* mse, int N, int n4) {
  __shared__ float warp_totals[THREADS / 32];
  const int first = blockIdx.x * THREADS + threadIdx.x;
  const int stride = gridDim.x * THREADS;
  const float4* P4 = reinterpret_cast<const float4*>(predictions);
  const float4* T4 = reinterpret_cast<const float4*>(targets);
  float sum = 0.0f;
  for (int i = first; i < n4; i += stride) {
    const float4 p = P4[i], t = T4[i];
    sum += (sq_diff(p.x, t.x) + sq_diff(p.y, t.y)) + (sq_diff(p.z, t.z) + sq_diff(p.w, t.w));
  }
  for (int i = 4 * n4 + first; i < N; i += stride) sum += sq_diff(predictions[i], targets[i]);
  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_totals[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < THREADS / 32 ? warp_totals[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) atomicAdd(mse, sum / N);
  }
}

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const bool aligned =
      (reinterpret_cast<std::uintptr_t>(predictions) | reinterpret_cast<std::uintptr_t>(targets)) % 16 == 0;
  const int n4 = aligned ? N / 4 : 0;
  const int items = aligned ? (n4 > 0 ? n4 : 1) : N;  // loop iterations the grid has to cover
  int blocks = sms * 8;
  const int needed = (items + THREADS - 1) / THREADS;
  if (blocks > needed) blocks = needed;
  if (blocks < 1) blocks = 1;
  cudaMemset(mse, 0, sizeof(float));
  mse_vec4<<<blocks, THREADS>>>(predictions, targets, mse, N, n4);
  cudaDeviceSynchronize();
}
