// Rung 1: a 2D grid of 16 x 16 blocks over the box, one thread per element (x along the columns, y along the rows;
// all four bounds included), a 256-element tree in shared memory per block, and one atomicAdd per block into output,
// which is zeroed first. Row r of the matrix starts at input + r * M: the stride is M, the number of columns.
#include <cuda_runtime.h>

#define TILE 16

__global__ void block_sums(const int* input, int* output, int M, int S_ROW, int E_ROW, int S_COL, int E_COL) {
  __shared__ int partial[TILE * TILE];
  const int c = S_COL + blockIdx.x * TILE + threadIdx.x;
  const int r = S_ROW + blockIdx.y * TILE + threadIdx.y;
  const int t = threadIdx.y * TILE + threadIdx.x;
  partial[t] = (r <= E_ROW && c <= E_COL) ? input[r * M + c] : 0;
  __syncthreads();
  for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(output, partial[0]);
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL, int E_COL) {
  const dim3 threads(TILE, TILE);
  const dim3 blocks((E_COL - S_COL + TILE) / TILE, (E_ROW - S_ROW + TILE) / TILE);  // ceil((E - S + 1) / TILE)
  cudaMemset(output, 0, sizeof(int));
  block_sums<<<blocks, threads>>>(input, output, M, S_ROW, E_ROW, S_COL, E_COL);
  cudaDeviceSynchronize();
}
