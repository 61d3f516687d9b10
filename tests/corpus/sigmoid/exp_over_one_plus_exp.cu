// expect: wrong_answer
// expect-message: NaN/Inf where the reference is finite
// sigmoid(x) written as exp(x) / (1 + exp(x)): algebraically the same as 1 / (1 + exp(-x)), and fine for the
// ordinary inputs of the first cases, but expf(x) overflows to +inf above x = 88.72 and inf / inf is NaN where the
// answer is 1. The case `large_positive` catches it; NaN never passes where the reference is finite.
#include <cuda_runtime.h>

#include <math.h>

__global__ void sigmoid_kernel(const float* X, float* Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float e = expf(X[i]);
    Y[i] = e / (1.0f + e);
  }
}

extern "C" void solve(const float* X, float* Y, int N) {
  sigmoid_kernel<<<(N + 255) / 256, 256>>>(X, Y, N);
  cudaDeviceSynchronize();
}
