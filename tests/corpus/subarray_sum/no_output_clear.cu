// expect: wrong_answer
// expect-message: elements wrong
// Adds every block's sum into output with atomicAdd, but never sets output to 0 first, so the sums are added to
// whatever the output held on entry. The judge fills outputs with a poison pattern before each call (as an int,
// 2,141,249,197): n1 expects 7 and gets 2,141,249,204. (Without the poison it would add to the previous call's sum,
// or to stale memory, and pass or fail by luck.)
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_sums(const int* input, int* output, int S, int E) {
  __shared__ int partial[THREADS];
  const int i = S + blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i <= E ? input[i] : 0;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
  const int count = E - S + 1;
  block_sums<<<(count + THREADS - 1) / THREADS, THREADS>>>(input, output, S, E);
  cudaDeviceSynchronize();
}
