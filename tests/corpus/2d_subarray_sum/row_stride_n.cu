// expect: wrong_answer
// expect-message: elements wrong
// Steps from row to row by N (the number of rows) instead of M (the number of columns, the row length of a row-major
// N x M matrix). Square matrices hide it (n1x1 passes); example_2x3 (N = 2, M = 3, columns 1 to 2) adds
// input[1] + input[2] + input[3] + input[4] = 2 + 3 + 4 + 5 = 14 instead of 2 + 3 + 5 + 1 = 11.
#include <cuda_runtime.h>

#define TILE 16

__global__ void block_sums(const int* input, int* output, int N, int S_ROW, int E_ROW, int S_COL, int E_COL) {
  __shared__ int partial[TILE * TILE];
  const int c = S_COL + blockIdx.x * TILE + threadIdx.x;
  const int r = S_ROW + blockIdx.y * TILE + threadIdx.y;
  const int t = threadIdx.y * TILE + threadIdx.x;
  partial[t] = (r <= E_ROW && c <= E_COL) ? input[r * N + c] : 0;  // should be r * M + c
  __syncthreads();
  for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL, int E_COL) {
  const dim3 threads(TILE, TILE);
  const dim3 blocks((E_COL - S_COL + TILE) / TILE, (E_ROW - S_ROW + TILE) / TILE);
  cudaMemset(output, 0, sizeof(int));
  block_sums<<<blocks, threads>>>(input, output, N, S_ROW, E_ROW, S_COL, E_COL);
  cudaDeviceSynchronize();
}
