// expect: wrong_answer
// A shared-memory tree over blocks of 1024 threads with no __syncthreads() at all, as if the whole block ran in
// lockstep like one warp. It does not: the 32 warps run in no fixed order, and each first sums a grid-stride slice
// whose global loads finish at different times, so a thread adds s[tid + stride] before the warp that owns that slot
// has stored its partial sum (it reads a stale value, often left by another block), and the compiler may keep the
// intermediate sums in registers and never store them at all. The 1000003-element case has a few hundred racing blocks,
// so the sum is off by far more than the tolerance. (The only other outcome would be `accepted`; there is no second
// way to fail, which is why a single verdict is expected.)
#include <cuda_runtime.h>

#define THREADS 1024

__global__ void racy_reduce(const float* x, float* out, int n) {
  __shared__ float s[THREADS];
  float sum = 0.0f;
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) sum += x[i];
  s[threadIdx.x] = sum;
  // missing: __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    // missing: __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  int blocks = (N + THREADS - 1) / THREADS;
  if (blocks > 2 * sms) blocks = 2 * sms;
  cudaMemset(output, 0, sizeof(float));
  racy_reduce<<<blocks, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
