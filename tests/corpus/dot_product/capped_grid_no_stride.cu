// expect: wrong_answer
// expect-message: elements wrong
// Caps the grid at 1024 blocks ("enough to fill the GPU") but keeps one element per thread instead of a
// grid-stride loop, so only the first 1024 * 256 = 262,144 products are ever read. Every test up to 65,537 elements
// passes; n1000003 loses about 738,000 products, a sum of hundreds against a tolerance of 0.1.
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_BLOCKS 1024

__global__ void dot_blocks(const float* A, const float* B, float* result, int N) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < N ? A[i] * B[i] : 0.0f;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
  cudaMemset(result, 0, sizeof(float));
  int blocks = (N + THREADS - 1) / THREADS;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;  // the mistake: no loop covers the elements past the grid
  dot_blocks<<<blocks, THREADS>>>(A, B, result, N);
  cudaDeviceSynchronize();
}
