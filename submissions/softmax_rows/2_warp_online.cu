// Rung 2: one warp per row (8 rows per block), which suits rows of a few thousand elements or fewer, and the online
// softmax: each lane keeps a running maximum m and a running sum s of exp(x - m), rescaling s by exp(m_old - m_new)
// when a larger value arrives, so the maximum and the sum take one sweep instead of two. Lanes merge their (m, s)
// pairs with butterfly shuffles, which leave the row's pair in every lane and need no shared memory or barrier. The
// output sweep reads the row again, mostly from cache. float4 loads when rows are 16-byte aligned (N % 4 == 0).
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>

#define THREADS 256
#define WARPS (THREADS / 32)

struct MaxSum {
  float m;  // largest value seen
  float s;  // sum of exp(x - m) over the values seen
};

__device__ MaxSum add(MaxSum t, float v) {
  if (v > t.m) return {v, t.s * expf(t.m - v) + 1.0f};  // exp(-inf) = 0 when t is still empty
  return {t.m, t.s + expf(v - t.m)};
}

__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;  // both empty: avoid (-inf) - (-inf) = NaN
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__global__ void softmax_rows_kernel(const float* input, float* output, int M, int N, bool vec4) {
  const int lane = threadIdx.x % 32;
  const long long row = (long long)blockIdx.x * WARPS + threadIdx.x / 32;
  if (row >= M) return;  // a whole warp leaves together: the shuffles below see full warps only
  const float* x = input + row * N;
  float* y = output + row * N;

  MaxSum t = {-INFINITY, 0.0f};
  if (vec4) {
    for (int q = lane; q < N / 4; q += 32) {
      const float4 v = reinterpret_cast<const float4*>(x)[q];
      t = add(add(add(add(t, v.x), v.y), v.z), v.w);
    }
  } else {
    for (int j = lane; j < N; j += 32) t = add(t, x[j]);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const MaxSum other = {__shfl_xor_sync(0xffffffffu, t.m, offset), __shfl_xor_sync(0xffffffffu, t.s, offset)};
    t = merge(t, other);
  }
  const float inv_sum = 1.0f / t.s;

  if (vec4) {
    for (int q = lane; q < N / 4; q += 32) {
      const float4 v = reinterpret_cast<const float4*>(x)[q];
      reinterpret_cast<float4*>(y)[q] = make_float4(expf(v.x - t.m) * inv_sum, expf(v.y - t.m) * inv_sum,
                                                    expf(v.z - t.m) * inv_sum, expf(v.w - t.m) * inv_sum);
    }
  } else {
    for (int j = lane; j < N; j += 32) y[j] = expf(x[j] - t.m) * inv_sum;
  }
}

extern "C" void solve(const float* input, float* output, int M, int N) {
  const bool vec4 = N % 4 == 0 && (uintptr_t)input % 16 == 0 && (uintptr_t)output % 16 == 0;
  const int blocks = (M + WARPS - 1) / WARPS;
  softmax_rows_kernel<<<blocks, THREADS>>>(input, output, M, N, vec4);
  cudaDeviceSynchronize();
}
