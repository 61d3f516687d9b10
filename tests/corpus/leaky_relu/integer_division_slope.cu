// expect: wrong_answer
// expect-message: elements wrong
// The slope written as 1 / 100: both operands are ints, so C divides in integers and the slope is 0. Negative inputs
// come out as -0 instead of 0.01 * x, i.e. this is plain ReLU. The very first case (a single -5, expected -0.05)
// fails.
#include <cuda_runtime.h>

__global__ void leaky_relu_kernel(const float* input, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float x = input[i];
    output[i] = x > 0.0f ? x : x * (1 / 100);
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  leaky_relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
  cudaDeviceSynchronize();
}
