// Rung 2: no sort at all: the nucleus's edge and the drawn token are found by bisecting on the logit's bits, with the
// probability mass above a candidate logit summed by one block of 1024 threads per step.
// With f(K) = the sum of exp(l - max) over the tokens whose logit is >= K (K an order-preserving integer key of the
// float), the sorted cumulative sums are f evaluated at the tokens' own logits, so:
//   - the nucleus ends in the group of equal logits with the largest key K1 such that f(K1) >= p * Z;
//   - the drawn token is in the group with the largest key K2 such that f(K2) > u * S (S the nucleus's mass).
// Each is found bit by bit from the top (32 block-wide sums of the 50,000 exponentials, about 50 per thread); inside
// a group of equal logits every token has the same probability, so how many of them count, and which one is drawn,
// is a division, and the r-th token of the group by index is found with a block-wide prefix count.
#include <cuda_runtime.h>

#include <math.h>

constexpr int kThreads = 1024;

__device__ float draw(int seed) {
  unsigned x = (unsigned)seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return (float)(x >> 8) * (1.0f / 16777216.0f);
}

// Orders like the float value; +0.0f is used for zero (the caller adds 0.0f, which turns -0 into +0).
__device__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

template <class T, class Op>
__device__ T block_reduce(T v, Op op, T* sh) {
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  __syncthreads();  // sh may still be read by a previous call
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = sh[lane];  // 32 warps
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;  // in every thread
}

struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct AddInt {
  __device__ int operator()(int a, int b) const { return a + b; }
};

// Sum of exp(l - top) over the tokens with key >= k (ge) or key > k (!ge).
__device__ float mass(const float* x, int n, float top, unsigned k, bool ge, float* sh) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += kThreads) {
    const float v = x[i] + 0.0f;
    const unsigned kv = key_of(v);
    if (ge ? kv >= k : kv > k) s += __expf(v - top);
  }
  return block_reduce(s, Add{}, sh);
}

// The largest key K with mass(>= K) >= target (strict: > target); 0 if none.
__device__ unsigned bisect(const float* x, int n, float top, float target, bool strict, float* sh) {
  unsigned result = 0;
  for (int b = 31; b >= 0; --b) {
    const unsigned cand = result | (1u << b);
    const float f = mass(x, n, top, cand, true, sh);
    if (strict ? f > target : f >= target) result = cand;
  }
  return result;
}

__device__ int count_eq(const float* x, int n, unsigned k, int* shi) {
  int c = 0;
  for (int i = threadIdx.x; i < n; i += kThreads) c += key_of(x[i] + 0.0f) == k;
  return block_reduce(c, AddInt{}, shi);
}

__global__ void __launch_bounds__(kThreads) top_p_kernel(const float* x, const float* p, const int* seed, int* out,
                                                          int n) {
  __shared__ float sh[32];
  __shared__ int shi[32];
  __shared__ int counts[kThreads];
  float top = -INFINITY;
  for (int i = threadIdx.x; i < n; i += kThreads) top = fmaxf(top, x[i]);
  top = block_reduce(top, Max{}, sh);
  const float z = mass(x, n, top, 0u, true, sh);

  // The nucleus: the groups above K1, and the first c1 tokens (by index) of group K1.
  const float target = *p * z;
  const unsigned k1 = bisect(x, n, top, target, false, sh);
  const float above1 = mass(x, n, top, k1, false, sh);
  const int n1 = count_eq(x, n, k1, shi);
  float e1 = 0.0f;
  for (int i = threadIdx.x; i < n; i += kThreads)
    if (key_of(x[i] + 0.0f) == k1) e1 = __expf(x[i] + 0.0f - top);
  e1 = block_reduce(e1, Max{}, sh);
  const int c1 = min(n1, max(1, (int)ceilf((target - above1) / e1)));
  const float s = above1 + c1 * e1;

  // The draw: group K2 (not below K1), then the r-th token of it by index.
  const float t = draw(*seed) * s;
  unsigned k2 = bisect(x, n, top, t, true, sh);
  if (k2 < k1) k2 = k1;
  const float above2 = mass(x, n, top, k2, false, sh);
  float e2 = 0.0f;
  for (int i = threadIdx.x; i < n; i += kThreads)
    if (key_of(x[i] + 0.0f) == k2) e2 = __expf(x[i] + 0.0f - top);
  e2 = block_reduce(e2, Max{}, sh);
  const int limit = k2 == k1 ? c1 : count_eq(x, n, k2, shi);
  const int r = min(limit - 1, max(0, (int)floorf((t - above2) / e2)));

  // The r-th index whose key is k2: contiguous chunks per thread, counted, prefix-summed, then searched.
  const int chunk = (n + kThreads - 1) / kThreads;
  const int lo = min(n, threadIdx.x * chunk), hi = min(n, lo + chunk);
  int c = 0;
  for (int i = lo; i < hi; ++i) c += key_of(x[i] + 0.0f) == k2;
  counts[threadIdx.x] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int acc = 0;
    for (int i = 0; i < kThreads; ++i) {
      const int v = counts[i];
      counts[i] = acc;
      acc += v;
    }
  }
  __syncthreads();
  const int before = counts[threadIdx.x];
  if (r >= before && r < before + c) {
    int seen = before;
    for (int i = lo; i < hi; ++i)
      if (key_of(x[i] + 0.0f) == k2 && seen++ == r) *out = i;
  }
}

// logits, p, seed, sampled_token are device pointers
extern "C" void solve(const float* logits, const float* p, const int* seed, int* sampled_token, int vocab_size) {
  top_p_kernel<<<1, kThreads>>>(logits, p, seed, sampled_token, vocab_size);
  cudaDeviceSynchronize();
}
