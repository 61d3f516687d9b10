// expect: wrong_answer
// expect-message: elements wrong
// Steps from row to row by N (the number of rows) instead of M (the number of columns, the row length of a row-major
// N x M matrix). Square matrices hide it (n1x1_match passes); example_2x3 (N = 2, M = 3, K = 1) reads
// input[0], input[1], input[2], input[2], input[3], input[4], never input[5], and counts 1 instead of 2. (Taller
// matrices also read past the end; the first wrong case decides the verdict.)
#include <cuda_runtime.h>

#define TILE 16

__global__ void count_tiles(const int* input, int* output, int N, int M, int K) {
  __shared__ int partial[TILE * TILE];
  const int c = blockIdx.x * TILE + threadIdx.x;
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int t = threadIdx.y * TILE + threadIdx.x;
  partial[t] = (r < N && c < M && input[r * N + c] == K) ? 1 : 0;  // the mistake: r * N
  __syncthreads();
  for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0 && partial[0] > 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K) {
  cudaMemset(output, 0, sizeof(int));
  const dim3 blocks((M + TILE - 1) / TILE, (N + TILE - 1) / TILE);
  count_tiles<<<blocks, dim3(TILE, TILE)>>>(input, output, N, M, K);
  cudaDeviceSynchronize();
}
