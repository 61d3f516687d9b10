#pragma once
// The last step of the references whose GEMM sums in float into a scratch buffer and whose output is half
// (fp16_batched_matmul, int4_matmul): every float rounded to half once, round to nearest even, the challenges'
// definition of the output.
//
// The kernel has internal linkage (static): every reference that includes this header gets its own copy, so the
// references link together without clashing.
#include <cstdint>

#include <cuda_fp16.h>

#include "reference/reference_util.cuh"

namespace judge::ref {

// C[i] = half(S[i]) for i < n. Four elements per step (a 16-byte load of S, an 8-byte store of C) where C is 8-byte
// aligned, then the rest one by one.
static __global__ void round_to_half_kernel(const float* __restrict__ S, __half* __restrict__ C, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t quads = reinterpret_cast<std::uintptr_t>(C) % 8 == 0 ? n / 4 : 0;
  for (std::int64_t q = first; q < quads; q += stride) {
    const float4 s = reinterpret_cast<const float4*>(S)[q];
    uint2 raw;
    __half2* c = reinterpret_cast<__half2*>(&raw);
    c[0] = __floats2half2_rn(s.x, s.y);
    c[1] = __floats2half2_rn(s.z, s.w);
    reinterpret_cast<uint2*>(C)[q] = raw;
  }
  for (std::int64_t i = 4 * quads + first; i < n; i += stride) C[i] = __float2half_rn(S[i]);
}

// round_to_half_kernel over n elements, launched on `stream` and checked.
static inline void round_to_half(const char* challenge, const float* S, __half* C, std::int64_t n,
                                 cudaStream_t stream) {
  round_to_half_kernel<<<grid_for((n + 3) / 4), kBlock, 0, stream>>>(S, C, n);
  check_launch(challenge, "round_to_half_kernel");
}

}  // namespace judge::ref
