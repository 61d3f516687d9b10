// Rung 2: one warp per token, the token's row kept in registers (D <= 1024: at most 32 floats a lane), so the two
// table rows are read from memory once instead of three times, and the sums are warp shuffles with no shared memory
// and no block barriers. Where D % 4 == 0 (and the pointers are 16-byte aligned) a lane loads float4s: every row of both
// tables and of the output then starts 16-byte aligned. Lane l holds elements l, l + 32, ... (or, with float4s, the
// groups 4l, 4l + 128, ...), so each load instruction of a warp reads consecutive memory.
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>

#define WARPS 8        // tokens per block of 256 threads
#define MAX_PER_LANE 32  // 1024 / 32: the widest row of the constraints

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;  // every lane gets the total
}

template <bool VEC4>
__global__ void embedding_layer_kernel(const int* __restrict__ token_ids, const int* __restrict__ position_ids,
                                       const float* __restrict__ token_embeddings,
                                       const float* __restrict__ position_embeddings,
                                       const float* __restrict__ gamma, const float* __restrict__ beta,
                                       float* __restrict__ output, int rows, int T, int D, float eps) {
  const int row = blockIdx.x * WARPS + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // the whole warp leaves together: the shuffles below see full warps only
  const float* tok = token_embeddings + (size_t)token_ids[row] * D;
  const float* pos = position_embeddings + (size_t)position_ids[row % T] * D;
  float* y = output + (size_t)row * D;

  // Element i of this lane's share is feature col(i); v[i] = 0 past the end of the row.
  auto col = [&](int i) { return VEC4 ? (i / 4 * 32 + lane) * 4 + i % 4 : i * 32 + lane; };
  float v[MAX_PER_LANE];
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < MAX_PER_LANE; i += (VEC4 ? 4 : 1)) {
    const int j = col(i);
    if (VEC4) {
      float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (j < D) {
        const float4 a = *reinterpret_cast<const float4*>(tok + j);
        const float4 b = *reinterpret_cast<const float4*>(pos + j);
        s = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
      }
      v[i] = s.x, v[i + 1] = s.y, v[i + 2] = s.z, v[i + 3] = s.w;
      sum += (s.x + s.y) + (s.z + s.w);
    } else {
      v[i] = j < D ? tok[j] + pos[j] : 0.0f;
      sum += v[i];
    }
  }
  const float mean = warp_sum(sum) / D;

  float squares = 0.0f;
#pragma unroll
  for (int i = 0; i < MAX_PER_LANE; ++i) {
    const float d = v[i] - mean;
    v[i] = d;
    if (col(i) < D) squares += d * d;
  }
  const float inv_std = rsqrtf(warp_sum(squares) / D + eps);

#pragma unroll
  for (int i = 0; i < MAX_PER_LANE; i += (VEC4 ? 4 : 1)) {
    const int j = col(i);
    if (j >= D) continue;
    if (VEC4) {
      const float4 g = *reinterpret_cast<const float4*>(gamma + j);
      const float4 b = *reinterpret_cast<const float4*>(beta + j);
      *reinterpret_cast<float4*>(y + j) =
          make_float4(v[i] * inv_std * g.x + b.x, v[i + 1] * inv_std * g.y + b.y, v[i + 2] * inv_std * g.z + b.z,
                      v[i + 3] * inv_std * g.w + b.w);
    } else {
      y[j] = v[i] * inv_std * gamma[j] + beta[j];
    }
  }
}

extern "C" void solve(const int* token_ids, const int* position_ids, const float* token_embeddings,
                      const float* position_embeddings, const float* gamma, const float* beta,
                      float* output, int B, int T, int V, int P, int D, float eps) {
  const int rows = B * T;
  const int blocks = (rows + WARPS - 1) / WARPS;
  const bool aligned = (((uintptr_t)token_embeddings | (uintptr_t)position_embeddings | (uintptr_t)gamma |
                         (uintptr_t)beta | (uintptr_t)output) % 16) == 0;
  if (D % 4 == 0 && aligned)
    embedding_layer_kernel<true><<<blocks, WARPS * 32>>>(token_ids, position_ids, token_embeddings,
                                                          position_embeddings, gamma, beta, output, rows, T, D, eps);
  else
    embedding_layer_kernel<false><<<blocks, WARPS * 32>>>(token_ids, position_ids, token_embeddings,
                                                           position_embeddings, gamma, beta, output, rows, T, D, eps);
  cudaDeviceSynchronize();
}
