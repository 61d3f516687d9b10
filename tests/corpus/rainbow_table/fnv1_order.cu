// expect: wrong_answer
// expect-message: elements wrong
// FNV-1 instead of FNV-1a: each byte step multiplies by the prime first and XORs the byte in afterwards. It is a
// real, well-known hash, just not this one; the two differ on every input, so the statement's example fails.
#include <cuda_runtime.h>

__device__ unsigned int fnv1_hash(unsigned int input) {
  unsigned int hash = 2166136261u;
  for (int byte_pos = 0; byte_pos < 4; byte_pos++) {
    unsigned char byte = (input >> (byte_pos * 8)) & 0xFFu;
    hash = (hash * 16777619u) ^ byte;  // should be (hash ^ byte) * prime
  }
  return hash;
}

__global__ void hash_kernel(const int* input, unsigned int* output, int N, int R) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    unsigned int h = input[i];
    for (int r = 0; r < R; r++) h = fnv1_hash(h);
    output[i] = h;
  }
}

extern "C" void solve(const int* input, unsigned int* output, int N, int R) {
  hash_kernel<<<(N + 255) / 256, 256>>>(input, output, N, R);
  cudaDeviceSynchronize();
}
