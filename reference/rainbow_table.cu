// Reference for challenges/rainbow_table: output[i] = fnv1a(fnv1a(...fnv1a(input[i])...)), R applications of the
// 32-bit FNV-1a hash to the four little-endian bytes of the value. Integer work, so exact: unsigned arithmetic wraps
// modulo 2^32, as LeetGPU's reference masks to 32 bits after every byte.
// It is also the speed yardstick. The work is about a dozen integer instructions per round and value against 8 bytes
// moved, so from R of a few up it is limited by the multiplies, not by memory: each thread hashes 4 values (one
// 16-byte int4 load) per step of a grid-stride loop, four independent chains that hide the multiply latency. The last
// N % 4 values (all of them if a pointer is not 16-byte aligned) go one at a time.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "rainbow_table";
constexpr std::uint32_t kPrime = 16777619u;
constexpr std::uint32_t kOffsetBasis = 2166136261u;

__host__ __device__ __forceinline__ std::uint32_t fnv1a(std::uint32_t x) {
  std::uint32_t h = kOffsetBasis;
#pragma unroll
  for (int b = 0; b < 4; ++b) h = (h ^ ((x >> (8 * b)) & 0xFFu)) * kPrime;
  return h;
}

__host__ __device__ __forceinline__ std::uint32_t rounds(std::uint32_t x, int r) {
  for (int i = 0; i < r; ++i) x = fnv1a(x);
  return x;
}

__global__ void hash_kernel(const int* __restrict__ in, std::uint32_t* __restrict__ out, std::int64_t n, int r,
                            bool vec4) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t tid = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  std::int64_t done = 0;
  if (vec4) {
    const std::int64_t quads = n / 4;
    for (std::int64_t q = tid; q < quads; q += stride) {
      const int4 v = reinterpret_cast<const int4*>(in)[q];
      std::uint32_t a = v.x, b = v.y, c = v.z, d = v.w;
      for (int i = 0; i < r; ++i) {  // four independent chains per round
        a = fnv1a(a);
        b = fnv1a(b);
        c = fnv1a(c);
        d = fnv1a(d);
      }
      reinterpret_cast<uint4*>(out)[q] = make_uint4(a, b, c, d);
    }
    done = 4 * quads;
  }
  for (std::int64_t i = done + tid; i < n; i += stride) out[i] = rounds(std::uint32_t(in[i]), r);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  const int r = a.scalar<int>("R");
  if (n <= 0) return;
  const int* in = a.input<int>("input");
  std::uint32_t* out = a.output<std::uint32_t>("output");
  const bool vec4 = judge::ref::aligned16(in, out);
  const unsigned blocks = judge::ref::grid_for(vec4 ? (n + 3) / 4 : n);
  hash_kernel<<<blocks, judge::ref::kBlock, 0, s>>>(in, out, n, r, vec4);
  judge::ref::check_launch(kId, "hash_kernel");
}

// Independent of the GPU path's code: the hash spelled as LeetGPU's reference does it, in 64-bit integers masked to
// 32 bits after every byte.
void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const int r = a.scalar<int>("R");
  const int* x = a.input<int>("input");
  double* y = a.output("output");
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t v = x[i];
    for (int k = 0; k < r; ++k) {
      std::int64_t h = 2166136261LL;
      for (int b = 0; b < 4; ++b) h = ((h ^ ((v >> (8 * b)) & 0xFF)) * 16777619LL) & 0xFFFFFFFFLL;
      v = h;
    }
    y[i] = double(v);
  }
}

}  // namespace

JUDGE_REFERENCE(rainbow_table, gpu, cpu)
