#include <cuda_runtime.h>

// The draw of the statement: u in [0, 1) from the seed (copy it as is: the judge computes the same bits).
__device__ float draw(int seed) {
  unsigned x = (unsigned)seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return (float)(x >> 8) * (1.0f / 16777216.0f);
}

// 1. softmax of logits (subtract the maximum); 2. order the tokens by logit, largest first, equal logits by smaller
// index; 3. the nucleus is the shortest prefix of that order whose probabilities sum to >= p (all tokens if none);
// 4. with S the nucleus's probability, write the first token of the order whose cumulative probability exceeds
// draw(*seed) * S. p, seed and sampled_token are one-element device arrays.
__global__ void top_p_kernel(const float* logits, const float* p, const int* seed, int* sampled_token, int vocab_size) {
  // TODO
}

// logits, p, seed, sampled_token are device pointers
extern "C" void solve(const float* logits, const float* p, const int* seed, int* sampled_token, int vocab_size) {
  top_p_kernel<<<1, 256>>>(logits, p, seed, sampled_token, vocab_size);
  cudaDeviceSynchronize();
}
