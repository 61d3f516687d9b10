// Rung 1: a 2D grid of 16 x 16 tiles, one thread per element: thread (r, c) writes a 1 where input[r * M + c] == K
// and a 0 elsewhere (and outside the matrix). Each block adds up its 256 values in shared memory (a tree that halves
// the active threads each step), and thread 0 adds the block's count to output with atomicAdd. output is set to zero
// first: its contents on entry are garbage.
#include <cuda_runtime.h>

#define TILE 16

__global__ void count_tiles(const int* input, int* output, int N, int M, int K) {
  __shared__ int partial[TILE * TILE];
  const int c = blockIdx.x * TILE + threadIdx.x;  // column: x runs along a row, so a warp reads consecutive ints
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int t = threadIdx.y * TILE + threadIdx.x;
  partial[t] = (r < N && c < M && input[r * M + c] == K) ? 1 : 0;  // a row is M ints long; N * M <= 10^8 fits an int
  __syncthreads();
  for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0 && partial[0] > 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K) {
  cudaMemset(output, 0, sizeof(int));
  const dim3 threads(TILE, TILE);
  const dim3 blocks((M + TILE - 1) / TILE, (N + TILE - 1) / TILE);
  count_tiles<<<blocks, threads>>>(input, output, N, M, K);
  cudaDeviceSynchronize();
}
