#include <cuda_runtime.h>

// Row r of Q has D floats; with h = D / 2, element k pairs with element k + h (not with its neighbour):
// output[r][k]     = Q[r][k]     * cos[r][k]     - Q[r][k + h] * sin[r][k]
// output[r][k + h] = Q[r][k + h] * cos[r][k + h] + Q[r][k]     * sin[r][k + h]
// One thread per pair is a good start: M * D / 2 threads.
__global__ void rope_kernel(const float* Q, const float* cos, const float* sin, float* output, int M, int D) {
  // TODO
}

// Q, cos, sin and output point to GPU memory (the inputs must not be modified). solve() must leave the finished result
// in output.
extern "C" void solve(float* Q, float* cos, float* sin, float* output, int M, int D) {
  const int pairs = M * (D / 2);
  const int threads_per_block = 256;
  const int blocks = (pairs + threads_per_block - 1) / threads_per_block;
  rope_kernel<<<blocks, threads_per_block>>>(Q, cos, sin, output, M, D);
  cudaDeviceSynchronize();
}
