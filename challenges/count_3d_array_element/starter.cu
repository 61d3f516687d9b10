#include <cuda_runtime.h>

// output[0] = the number of elements of the row-major N x M x K array input equal to P (element (i, j, k) is
// input[(i * M + j) * K + k]). Every block can count the matches among its own elements; those counts then have to be
// combined into the one output value.
__global__ void count_kernel(const int* input, int* output, int N, int M, int K, int P) {
  // TODO
}

// input and output point to GPU memory. solve() must leave the finished count in output[0].
extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
  const dim3 threads_per_block(32, 8, 1);
  const dim3 blocks((K + threads_per_block.x - 1) / threads_per_block.x,
                    (M + threads_per_block.y - 1) / threads_per_block.y, N);
  count_kernel<<<blocks, threads_per_block>>>(input, output, N, M, K, P);
  cudaDeviceSynchronize();
}
