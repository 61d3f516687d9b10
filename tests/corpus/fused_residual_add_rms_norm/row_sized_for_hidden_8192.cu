// expect: wrong_answer
// expect-message: never written
// Keeps the row of z in registers, 8 values for each of 1024 threads, sized for hidden sizes up to 8192 (LLaMA-70B)
// and silently ignoring anything longer. The constraints allow C up to 65536: in test 4x65536 only the first 8192
// elements of each row are summed (so their outputs are wrong too) and the other 57344 are never written.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 1024
#define PER_THREAD 8

__global__ void fused_add_rms_norm_kernel(const float* x, const float* residual, const float* weight, float* out,
                                          int C, float eps) {
  __shared__ float warp_sums[THREADS / 32];
  const size_t base = (size_t)blockIdx.x * C;
  float z[PER_THREAD];
  float squares = 0.0f;
#pragma unroll
  for (int k = 0; k < PER_THREAD; ++k) {
    const int j = k * THREADS + threadIdx.x;
    z[k] = j < C ? x[base + j] + residual[base + j] : 0.0f;
    squares += z[k] * z[k];
  }
  for (int offset = 16; offset > 0; offset /= 2) squares += __shfl_xor_sync(0xffffffffu, squares, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = squares;
  __syncthreads();
  float total = 0.0f;
  for (int w = 0; w < THREADS / 32; ++w) total += warp_sums[w];
  const float inv_rms = rsqrtf(total / C + eps);
#pragma unroll
  for (int k = 0; k < PER_THREAD; ++k) {
    const int j = k * THREADS + threadIdx.x;
    if (j < C) out[base + j] = z[k] * inv_rms * weight[j];
  }
}

extern "C" void solve(const float* x, const float* residual, const float* weight, float* out, int N, int C,
                      float eps) {
  fused_add_rms_norm_kernel<<<N, THREADS>>>(x, residual, weight, out, C, eps);
  cudaDeviceSynchronize();
}
