#include <cuda_runtime.h>

// input is rows x cols, output is cols x rows, both row-major: output[c * rows + r] = input[r * cols + c].
__global__ void transpose_kernel(const float* input, float* output, int rows, int cols) {
  // TODO: copy the element(s) of this thread to their transposed position.
}

// input and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 threads_per_block(16, 16);                  // x runs along the columns of input, y along its rows
  const dim3 blocks((cols + threads_per_block.x - 1) / threads_per_block.x,
                    (rows + threads_per_block.y - 1) / threads_per_block.y);
  transpose_kernel<<<blocks, threads_per_block>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
