#include <cuda_runtime.h>

// One block per row is a natural start: the block's threads find the row's maximum and its sum of exp(x - max)
// together, then write output = exp(x - max) / sum.
__global__ void softmax_rows_kernel(const float* input, float* output, int M, int N) {
  // TODO: row blockIdx.x
}

// input and output point to GPU memory; both are M x N, row-major. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, int M, int N) {
  const int threads_per_block = 256;
  softmax_rows_kernel<<<M, threads_per_block>>>(input, output, M, N);
  cudaDeviceSynchronize();
}
