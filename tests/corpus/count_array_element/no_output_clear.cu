// expect: wrong_answer
// expect-message: elements wrong
// Adds every block's count into output with atomicAdd, but never sets output to 0 first, so the counts are added to
// whatever the output held on entry. The judge fills outputs with a poison pattern before each call (as an int,
// 2,141,249,197): n1_match expects 1 and gets 2,141,249,198. (Without the poison it would add the previous call's
// count, or stale memory, and pass or fail by luck.)
#include <cuda_runtime.h>

#define THREADS 256

__global__ void count_blocks(const int* input, int* output, int N, int K) {
  __shared__ int partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = (i < N && input[i] == K) ? 1 : 0;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int K) {
  // missing: cudaMemset(output, 0, sizeof(int));
  count_blocks<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, output, N, K);
  cudaDeviceSynchronize();
}
