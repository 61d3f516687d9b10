// expect: wrong_answer
// expect-message: elements wrong
// Walks the bytes with `while (x != 0) { ...; x >>= 8; }`, as a hash over a variable-length string would, so it
// stops at the highest non-zero byte: 0 hashes to the bare offset basis and 1 folds in one byte instead of four.
// The second example (`zero_and_max_r3`, [0, 1, 2147483647]) and `small_values_r2` (inputs below 256) catch it.
#include <cuda_runtime.h>

__device__ unsigned int fnv1a_short(unsigned int x) {
  unsigned int hash = 2166136261u;
  while (x != 0) {  // should be exactly four bytes, zeros included
    hash = (hash ^ (x & 0xFFu)) * 16777619u;
    x >>= 8;
  }
  return hash;
}

__global__ void hash_kernel(const int* input, unsigned int* output, int N, int R) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    unsigned int h = input[i];
    for (int r = 0; r < R; r++) h = fnv1a_short(h);
    output[i] = h;
  }
}

extern "C" void solve(const int* input, unsigned int* output, int N, int R) {
  hash_kernel<<<(N + 255) / 256, 256>>>(input, output, N, R);
  cudaDeviceSynchronize();
}
