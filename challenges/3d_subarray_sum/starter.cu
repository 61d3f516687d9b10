#include <cuda_runtime.h>

// output[0] = the sum of input[(d * M + r) * K + c] for S_DEP <= d <= E_DEP, S_ROW <= r <= E_ROW and
// S_COL <= c <= E_COL (all bounds included). Every block can add up its share of the box; the block sums then have
// to be combined into the one output value.
__global__ void subarray_sum_3d_kernel(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP,
                                       int S_ROW, int E_ROW, int S_COL, int E_COL) {
  // TODO
}

// input and output point to GPU memory; output holds a single int, garbage on entry.
extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
  cudaMemset(output, 0, sizeof(int));  // start the total at zero if your kernel accumulates into it
  const long long count = static_cast<long long>(E_DEP - S_DEP + 1) * (E_ROW - S_ROW + 1) * (E_COL - S_COL + 1);
  const int threads_per_block = 256;
  const int blocks = static_cast<int>((count + threads_per_block - 1) / threads_per_block);
  subarray_sum_3d_kernel<<<blocks, threads_per_block>>>(input, output, N, M, K, S_DEP, E_DEP, S_ROW, E_ROW, S_COL,
                                                        E_COL);
  cudaDeviceSynchronize();
}
