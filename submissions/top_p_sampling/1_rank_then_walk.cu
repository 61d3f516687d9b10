// Rung 1: every token's rank in the sorted order by counting (a thread per token compares its logit with all the
// others), then one thread walks the sorted tokens in double: softmax denominator, nucleus, draw.
// The rank of token i is the number of tokens that come before it: a larger logit, or an equal one with a smaller
// index, so the ranks are a permutation and ties follow the statement's rule. O(vocab_size^2) comparisons (2.5e9 at
// 50,000: milliseconds on a GPU) and a sequential walk; no sort needed.
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

// The sums run in double: 262,144 float terms added one by one (the stress case) drift by more than the 1e-5
// margin the cases keep from every boundary (statement, "Checking"), and this walk adds them one by one.
__global__ void walk_kernel(const float* logits, const int* sorted, const float* p, const int* seed, int* out, int n) {
  const double top = logits[sorted[0]];
  double z = 0.0;
  for (int i = 0; i < n; ++i) z += exp(static_cast<double>(logits[sorted[i]]) - top);
  // Nucleus: the first m tokens, m the first position whose cumulative probability reaches p (all if none does).
  const double target = static_cast<double>(*p) * z;
  double s = 0.0;
  int m = n;
  for (int i = 0; i < n; ++i) {
    s += exp(static_cast<double>(logits[sorted[i]]) - top);
    if (s >= target) {
      m = i + 1;
      break;
    }
  }
  // Draw: the first position whose cumulative mass exceeds u times the nucleus's mass.
  const double t = static_cast<double>(draw(*seed)) * s;
  double c = 0.0;
  int j = m - 1;
  for (int i = 0; i < m; ++i) {
    c += exp(static_cast<double>(logits[sorted[i]]) - top);
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
