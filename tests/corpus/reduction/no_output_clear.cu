// expect: wrong_answer
// expect-message: read before it was written
// Accumulates into *output with atomicAdd but never sets it to 0 first, so it reads the output's previous contents.
// The judge fills every output with a NaN pattern before each call: NaN + anything is NaN, and NaN never passes
// where the reference is finite. (Without the poison, the stale total of the previous call would be added instead.)
// "got nan" alone would leave the author guessing, so the message says what most likely happened.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void reduce(const float* x, float* out, int n) {
  __shared__ float s[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
  // missing: cudaMemset(output, 0, sizeof(float));
  reduce<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
