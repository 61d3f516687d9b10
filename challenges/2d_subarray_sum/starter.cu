#include <cuda_runtime.h>

// output[0] = the sum of input[r * M + c] for S_ROW <= r <= E_ROW and S_COL <= c <= E_COL (all bounds included).
// Every block can add up its share of the box; the block sums then have to be combined into the one output value.
__global__ void subarray_sum_2d_kernel(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL,
                                       int E_COL) {
  // TODO
}

// input and output point to GPU memory; output holds a single int, garbage on entry.
extern "C" void solve(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL, int E_COL) {
  cudaMemset(output, 0, sizeof(int));  // start the total at zero if your kernel accumulates into it
  const dim3 threads_per_block(16, 16);
  const dim3 blocks((E_COL - S_COL + 1 + 15) / 16, (E_ROW - S_ROW + 1 + 15) / 16);
  subarray_sum_2d_kernel<<<blocks, threads_per_block>>>(input, output, N, M, S_ROW, E_ROW, S_COL, E_COL);
  cudaDeviceSynchronize();
}
