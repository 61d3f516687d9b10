// Rung 1: one thread per element. Thread i starts from input[i] and applies the FNV-1a hash R times, each round
// hashing the previous round's result, then writes the last hash to output[i]. Unsigned 32-bit arithmetic wraps
// modulo 2^32, exactly as the hash is defined.
#include <cuda_runtime.h>

__device__ unsigned int fnv1a_hash(unsigned int input) {
  const unsigned int FNV_PRIME = 16777619u;
  const unsigned int OFFSET_BASIS = 2166136261u;
  unsigned int hash = OFFSET_BASIS;
  for (int byte_pos = 0; byte_pos < 4; byte_pos++) {
    unsigned char byte = (input >> (byte_pos * 8)) & 0xFFu;
    hash = (hash ^ byte) * FNV_PRIME;
  }
  return hash;
}

__global__ void fnv1a_hash_kernel(const int* input, unsigned int* output, int N, int R) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    unsigned int h = static_cast<unsigned int>(input[i]);
    for (int r = 0; r < R; r++) h = fnv1a_hash(h);
    output[i] = h;
  }
}

extern "C" void solve(const int* input, unsigned int* output, int N, int R) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  fnv1a_hash_kernel<<<blocks, threads_per_block>>>(input, output, N, R);
  cudaDeviceSynchronize();
}
