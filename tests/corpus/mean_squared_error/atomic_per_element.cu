// expect: wrong_answer
// expect-message: elements wrong
// Every thread adds its own squared difference, divided by N, straight into mse with atomicAdd: one running float
// sum over N positive terms. Once the running total is a few thousand times larger than a term, each addition is
// rounded to the total's coarse float spacing, mostly downwards, and the error piles up instead of cancelling: the
// small cases pass, but at N = 1,000,003 the mean comes out about 5e-4 too small (tolerance 2e-5), and at the
// benchmark's 5e7 elements about 12%. Sum in a tree or per block first; one running sum is not accurate enough here.
#include <cuda_runtime.h>

__global__ void mse_atomic(const float* predictions, const float* targets, float* mse, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float d = predictions[i] - targets[i];
    atomicAdd(mse, d * d / N);
  }
}

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
  cudaMemset(mse, 0, sizeof(float));
  mse_atomic<<<(N + 255) / 256, 256>>>(predictions, targets, mse, N);
  cudaDeviceSynchronize();
}
