// Rung 2: a grid just large enough to fill the GPU (8 blocks of 256 per SM), each thread walking the three arrays
// with a grid-stride loop and 16-byte float4 loads and summing its terms in a register, with the fast __expf (the
// clamp and min are continuous in the ratio, so its few-ulp error stays a few ulp). Warp shuffles replace the shared-
// memory tree and there is one atomicAdd per block instead of one per 256 tokens. The n % 4 tail is read one by one;
// misaligned inputs take the scalar loop for everything.
#include <cstdint>

#include <cuda_runtime.h>

#define THREADS 256

__device__ float surrogate(float adv, float lp, float lp_old, float lo, float hi) {
  const float r = __expf(lp - lp_old);
  return fminf(r * adv, fminf(fmaxf(r, lo), hi) * adv);
}

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

// n4: how many whole float4s to read as such (0 when an input is misaligned); tokens from 4 * n4 on are scalar.
__global__ void ppo_vec4(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                         float clip_eps, int n, int n4) {
  __shared__ float warp_totals[THREADS / 32];
  const float lo = 1.0f - clip_eps, hi = 1.0f + clip_eps;
  const int first = blockIdx.x * THREADS + threadIdx.x;
  const int stride = gridDim.x * THREADS;
  const float4* A4 = reinterpret_cast<const float4*>(advantages);
  const float4* L4 = reinterpret_cast<const float4*>(log_pi);
  const float4* O4 = reinterpret_cast<const float4*>(log_pi_old);
  float sum = 0.0f;
  for (int q = first; q < n4; q += stride) {
    const float4 a = A4[q], l = L4[q], o = O4[q];
    sum += (surrogate(a.x, l.x, o.x, lo, hi) + surrogate(a.y, l.y, o.y, lo, hi)) +
           (surrogate(a.z, l.z, o.z, lo, hi) + surrogate(a.w, l.w, o.w, lo, hi));
  }
  for (int i = 4 * n4 + first; i < n; i += stride) sum += surrogate(advantages[i], log_pi[i], log_pi_old[i], lo, hi);
  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_totals[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = warp_sum(lane < THREADS / 32 ? warp_totals[lane] : 0.0f);
    if (lane == 0) atomicAdd(output, -sum / n);
  }
}

extern "C" void solve(const float* advantages, const float* log_pi, const float* log_pi_old, float* output,
                      float clip_eps, int B, int S) {
  const int n = B * S;
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const bool aligned = (reinterpret_cast<std::uintptr_t>(advantages) | reinterpret_cast<std::uintptr_t>(log_pi) |
                        reinterpret_cast<std::uintptr_t>(log_pi_old)) % 16 == 0;
  const int n4 = aligned ? n / 4 : 0;
  const int items = aligned ? (n4 > 0 ? n4 : 1) : n;  // loop iterations the grid has to cover
  int blocks = sms * 8;
  const int needed = (items + THREADS - 1) / THREADS;
  if (blocks > needed) blocks = needed;
  if (blocks < 1) blocks = 1;
  cudaMemset(output, 0, sizeof(float));
  ppo_vec4<<<blocks, THREADS>>>(advantages, log_pi, log_pi_old, output, clip_eps, n, n4);
  cudaDeviceSynchronize();
}
