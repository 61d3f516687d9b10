#include <cuda_runtime.h>

// One round of the hash: 32-bit FNV-1a over the four bytes of `input`, lowest byte first. Unsigned arithmetic wraps
// modulo 2^32, which is what the hash wants.
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

// One thread per element is a fine first version: thread i hashes input[i] R times and writes the result.
__global__ void fnv1a_hash_kernel(const int* input, unsigned int* output, int N, int R) {
  // TODO: compute this thread's index and, if it is below N, apply fnv1a_hash R times to input[i] (each round
  // hashing the previous round's result) and store the final hash in output[i].
}

// input and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const int* input, unsigned int* output, int N, int R) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;  // round up, so every element gets a thread
  fnv1a_hash_kernel<<<blocks, threads_per_block>>>(input, output, N, R);
  cudaDeviceSynchronize();
}
