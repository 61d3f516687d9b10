#include <cuda_runtime.h>

// output[0] = the number of elements of the row-major N x M matrix input equal to K (element (r, c) is
// input[r * M + c]). Every block can count the matches among its own elements; those counts then have to be combined
// into the one output value.
__global__ void count_kernel(const int* input, int* output, int N, int M, int K) {
  // TODO
}

// input and output point to GPU memory. solve() must leave the finished count in output[0].
extern "C" void solve(const int* input, int* output, int N, int M, int K) {
  const dim3 threads_per_block(16, 16);
  const dim3 blocks((M + threads_per_block.x - 1) / threads_per_block.x,
                    (N + threads_per_block.y - 1) / threads_per_block.y);
  count_kernel<<<blocks, threads_per_block>>>(input, output, N, M, K);
  cudaDeviceSynchronize();
}
