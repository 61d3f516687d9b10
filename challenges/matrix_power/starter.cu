#include <cuda_runtime.h>

// C = X Y for N x N row-major matrices: element (r, c) is at [r * N + c].
__global__ void matmul_kernel(const float* X, const float* Y, float* C, int N) {
  // TODO: C[row * N + col] = sum over k of X[row * N + k] * Y[k * N + col] for this thread's (row, col).
}

// input, output are device pointers. solve() must leave A^P in output (row-major, N x N).
extern "C" void solve(const float* input, float* output, int N, int P) {
  // TODO: P = 1 is a copy. Otherwise multiply P - 1 times (or square repeatedly), keeping the intermediate powers in
  // scratch buffers of your own (cudaMalloc): a product must never write the matrix it is reading.
  const dim3 threads_per_block(16, 16);  // x runs along the columns, y along the rows
  const dim3 blocks((N + threads_per_block.x - 1) / threads_per_block.x,
                    (N + threads_per_block.y - 1) / threads_per_block.y);
  (void)blocks;
  cudaDeviceSynchronize();
}
