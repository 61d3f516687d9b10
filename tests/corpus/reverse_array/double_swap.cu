// expect: wrong_answer
// expect-message: elements wrong
// judge-args: --case n1000000 --case n1000003
// Every one of N threads swaps its element with its mirror, instead of one thread per pair. Thread i and thread
// N - 1 - i both swap the same pair: when they run one after the other (different blocks, far apart in the grid),
// the second swap undoes the first and the array comes back unreversed; when they overlap, they race. (Inside one
// warp the two swaps happen in lockstep and both write the right values, so small arrays can look correct: the
// cases named above span thousands of blocks.)
#include <cuda_runtime.h>
__global__ void reverse_all(float* input, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const int j = N - 1 - i;
    const float a = input[i], b = input[j];
    input[i] = b;
    input[j] = a;
  }
}
extern "C" void solve(float* input, int N) {
  reverse_all<<<(N + 255) / 256, 256>>>(input, N);
  cudaDeviceSynchronize();
}
