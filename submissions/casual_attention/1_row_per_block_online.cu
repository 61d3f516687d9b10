// Rung 1: one block of 128 threads per query row i, walking the keys it may see (0..i) in tiles of 128 with an online
// softmax. Per tile, thread t scores key k0 + t against the row (Q's row sits in shared memory); the block finds the
// tile's maximum and the weights exp(s - m), and rescales the running sum l and output o by exp(m_old - m_new) when
// the maximum grows. Thread c owns output column c (d <= 128). The causal mask is the loop bound plus j <= i.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 128  // threads per block: keys per tile, and the largest d of the constraints
#define WARPS (THREADS / 32)
#define FULL 0xffffffffu

// Block-wide max or sum of one value per thread; every thread gets the result.
template <bool IS_MAX>
__device__ float block_reduce(float v, float* scratch) {
  for (int o = 16; o > 0; o /= 2) {
    const float other = __shfl_xor_sync(FULL, v, o);
    v = IS_MAX ? fmaxf(v, other) : v + other;
  }
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  float r = scratch[0];
  for (int w = 1; w < WARPS; ++w) r = IS_MAX ? fmaxf(r, scratch[w]) : r + scratch[w];
  __syncthreads();  // everyone has read scratch before the next call writes it
  return r;
}

__global__ void __launch_bounds__(THREADS) causal_attention_row(const float* Q, const float* K, const float* V,
                                                                float* out, int d, float scale) {
  __shared__ float q[THREADS];  // this block's query row
  __shared__ float p[THREADS];  // the current tile's weights
  __shared__ float scratch[WARPS];
  const int i = blockIdx.x, t = threadIdx.x;
  if (t < d) q[t] = Q[(size_t)i * d + t];
  __syncthreads();

  float m = -INFINITY;  // running maximum: nothing seen yet
  float l = 0.0f;       // running sum of exp(s - m)
  float o = 0.0f;       // running output, column t
  for (int k0 = 0; k0 <= i; k0 += THREADS) {  // causal: no tile starts past the diagonal
    const int j = k0 + t;
    float s = -INFINITY;  // keys after i are masked out
    if (j <= i) {
      float acc = 0.0f;
      for (int c = 0; c < d; ++c) acc += q[c] * K[(size_t)j * d + c];
      s = acc * scale;
    }
    const float m_new = fmaxf(m, block_reduce<true>(s, scratch));  // finite: key k0 <= i is in every tile
    const float correction = expf(m - m_new);                       // exp(-inf) = 0 on the first tile
    const float w = expf(s - m_new);                                 // exp(-inf) = 0 for masked keys
    p[t] = w;
    l = l * correction + block_reduce<false>(w, scratch);  // its barriers also publish p
    m = m_new;
    if (t < d) {
      o *= correction;
      const int keys = min(THREADS, i + 1 - k0);
      for (int jj = 0; jj < keys; ++jj) o += p[jj] * V[(size_t)(k0 + jj) * d + t];
    }
    __syncthreads();  // p is read by every thread before the next tile overwrites it
  }
  if (t < d) out[(size_t)i * d + t] = o / l;
}

// Q, K, V and output are M x d row-major device pointers; d <= 128.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int d) {
  const float scale = 1.0f / sqrtf((float)d);
  causal_attention_row<<<M, THREADS>>>(Q, K, V, output, d, scale);
  cudaDeviceSynchronize();
}
