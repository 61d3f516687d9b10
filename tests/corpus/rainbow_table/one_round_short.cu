// expect: wrong_answer
// expect-message: elements wrong
// Counts rounds from 1 with a strict bound, `for (r = 1; r < R; r++)`, so it hashes R - 1 times: with R = 1
// (`n1_r1`, `r1_n5`) the input is copied through unhashed, and every other case is one round behind.
#include <cuda_runtime.h>

__device__ unsigned int fnv1a_hash(unsigned int input) {
  unsigned int hash = 2166136261u;
  for (int byte_pos = 0; byte_pos < 4; byte_pos++) {
    unsigned char byte = (input >> (byte_pos * 8)) & 0xFFu;
    hash = (hash ^ byte) * 16777619u;
  }
  return hash;
}

__global__ void hash_kernel(const int* input, unsigned int* output, int N, int R) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    unsigned int h = input[i];
    for (int r = 1; r < R; r++) h = fnv1a_hash(h);  // R - 1 rounds
    output[i] = h;
  }
}

extern "C" void solve(const int* input, unsigned int* output, int N, int R) {
  hash_kernel<<<(N + 255) / 256, 256>>>(input, output, N, R);
  cudaDeviceSynchronize();
}
