// expect: wrong_answer
// The nucleus one token short: it keeps the tokens whose cumulative probability stays BELOW p and drops the one that
// carries the sum past p (torch.searchsorted gives that token's position; LeetGPU adds 1 to include it, this
// forgets). The nucleus must still hold at least one token, so a first token that alone reaches p is kept. Most
// draws land on an earlier token and give the same answer; last_of_nucleus_100 and last_of_nucleus_5000, whose
// seeds make the draw land on exactly that token, catch it.
#include <cuda_runtime.h>

#include <math.h>

__device__ float draw(int seed) {
  unsigned x = (unsigned)seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return (float)(x >> 8) * (1.0f / 16777216.0f);
}

__global__ void rank_kernel(const float* logits, int* sorted, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = logits[i];
  int rank = 0;
  for (int j = 0; j < n; ++j) {
    const float w = logits[j];
    rank += (w > v) || (w == v && j < i);
  }
  sorted[rank] = i;
}

__global__ void walk_kernel(const float* logits, const int* sorted, const float* p, const int* seed, int* out, int n) {
  const float top = logits[sorted[0]];
  float z = 0.0f;
  for (int i = 0; i < n; ++i) z += expf(logits[sorted[i]] - top);
  // Nucleus: the first m tokens, m the first position whose cumulative probability reaches p (all if none does).
  const float target = *p * z;
  float s = 0.0f;
  int m = n;
  for (int i = 0; i < n; ++i) {
    const float e = expf(logits[sorted[i]] - top);
    if (s + e >= target) {  // BUG: stops BEFORE the token that reaches p (searchsorted without the +1)
      m = i > 0 ? i : 1;
      if (i > 0) break;
    }
    s += e;
    if (m == 1 && i == 0 && s >= target) break;
  }
  // Draw: the first position whose cumulative mass exceeds u times the nucleus's mass.
  const float t = draw(*seed) * s;
  float c = 0.0f;
  int j = m - 1;
  for (int i = 0; i < m; ++i) {
    c += expf(logits[sorted[i]] - top);
    if (c > t) {
      j = i;
      break;
    }
  }
  *out = sorted[j];
}

// logits, p, seed, sampled_token are device pointers
extern "C" void solve(const float* logits, const float* p, const int* seed, int* sampled_token, int vocab_size) {
  int* sorted = nullptr;
  cudaMalloc(&sorted, vocab_size * sizeof(int));
  rank_kernel<<<(vocab_size + 255) / 256, 256>>>(logits, sorted, vocab_size);
  walk_kernel<<<1, 1>>>(logits, sorted, p, seed, sampled_token, vocab_size);
  cudaDeviceSynchronize();
  cudaFree(sorted);
}
