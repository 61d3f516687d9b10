// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case n1000000 --case n1000003
// An out-of-place reversal run in place: thread i writes input[i] = input[N - 1 - i] for every i. The blocks of the
// first half run first and overwrite their elements; when the blocks of the second half run, the values they read
// from the first half are already the reversed ones, so the second half ends up a copy of the first half's mirror
// (the original second half, unchanged) instead of the original first half reversed.
#include <cuda_runtime.h>
__global__ void reverse_copy(float* input, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) input[i] = input[N - 1 - i];
}
extern "C" void solve(float* input, int N) {
  reverse_copy<<<(N + 255) / 256, 256>>>(input, N);
  cudaDeviceSynchronize();
}
