// expect: wrong_answer
// expect-message: elements wrong
// Adds every block's count into output with atomicAdd, but never sets output to 0 first, so the counts are added to
// whatever the output held on entry. The judge fills outputs with a poison pattern before each call (as an int,
// 2,141,249,197), as LeetGPU hands over an uninitialised torch.empty: n1x1_match expects 1 and gets 2,141,249,198.
#include <cuda_runtime.h>

#define TILE 16

__global__ void count_tiles(const int* input, int* output, int N, int M, int K) {
  __shared__ int partial[TILE * TILE];
  const int c = blockIdx.x * TILE + threadIdx.x;
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int t = threadIdx.y * TILE + threadIdx.x;
  partial[t] = (r < N && c < M && input[r * M + c] == K) ? 1 : 0;
  __syncthreads();
  for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K) {
  // missing: cudaMemset(output, 0, sizeof(int));
  const dim3 blocks((M + TILE - 1) / TILE, (N + TILE - 1) / TILE);
  count_tiles<<<blocks, dim3(TILE, TILE)>>>(input, output, N, M, K);
  cudaDeviceSynchronize();
}
