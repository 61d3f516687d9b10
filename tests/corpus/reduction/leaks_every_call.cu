// expect: runtime_error
// expect-message: leak
// judge-command: submit
// Correct, but every call cudaMalloc's 256 MiB of scratch for its per-block partial sums and never frees it. One call
// is harmless; the benchmark calls it hundreds of times, so free device memory shrinks by 256 MiB per call until the
// GPU runs out. The judge watches free memory across calls and stops it as a leak (`runtime_error`) before that.
#include <cuda_runtime.h>

#define THREADS 256

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Each block writes its partial sum to partials[blockIdx.x]; a second launch adds them up.
__global__ void block_sums(const float* x, float* partials, int n) {
  __shared__ float warp_totals[THREADS / 32];
  float sum = 0.0f;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) sum += x[i];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < THREADS / 32 ? warp_totals[threadIdx.x] : 0.0f;
    sum = warp_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  float* scratch = nullptr;
  cudaMalloc(&scratch, size_t(256) << 20);  // "plenty of room"; never freed
  int blocks = (N + THREADS - 1) / THREADS;
  if (blocks > 1024) blocks = 1024;
  block_sums<<<blocks, THREADS>>>(input, scratch, N);
  block_sums<<<1, THREADS>>>(scratch, output, blocks);
  cudaDeviceSynchronize();
}
