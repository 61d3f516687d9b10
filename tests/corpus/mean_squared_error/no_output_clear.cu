// expect: wrong_answer
// expect-message: NaN
// Adds every block's share of the mean into mse with atomicAdd, but never sets mse to 0 first, so the first atomicAdd
// adds to whatever the output held on entry. The judge fills outputs with a NaN pattern before each call: NaN +
// anything is NaN, and NaN never passes where the reference is finite.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void mse_blocks(const float* predictions, const float* targets, float* mse, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  const float d = i < N ? predictions[i] - targets[i] : 0.0f;
  partial[threadIdx.x] = d * d;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(mse, partial[0] / N);
}

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
  // missing: cudaMemset(mse, 0, sizeof(float));
  mse_blocks<<<(N + THREADS - 1) / THREADS, THREADS>>>(predictions, targets, mse, N);
  cudaDeviceSynchronize();
}
