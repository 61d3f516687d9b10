// Reference for challenges/softmax: output[i] = exp(x[i] - max) / sum_j exp(x[j] - max), with the exponentials and
// their sum in double and one rounding to float at the end. Subtracting the maximum keeps exp() in range for any
// finite input. Deterministic (no atomics: fixed grid, fixed reduction trees), so a case gives the same bits each run.
//
// Every output needs the maximum and the sum over all of the input, so an input larger than the chip's caches must be
// read twice: once for the statistics, once to write the outputs. The reference does exactly that (12 bytes moved per
// element, against the 8 of the spec's bytes count, which no kernel can reach beyond L2):
//   1. stats:     each thread keeps an online (max, sum) pair over its grid-stride share, float4 loads; one pair a block.
//   2. combine:   one block merges the block pairs into the global (max, sum).
//   3. normalize: y = exp(x - max) / sum, float4, walking the input from its end: the last part pass 1 read is still in
//                 L2, so that part is read from L2 instead of memory.
#include <cmath>
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "softmax";
constexpr int kBlock = judge::ref::kBlock;
constexpr int kMaxPartials = 2048;

// Scratch between the passes; references run one case at a time, so one copy per device suffices.
__device__ float g_block_max[kMaxPartials];
__device__ double g_block_sum[kMaxPartials];
__device__ float g_max;
__device__ double g_inv_sum;

// Online softmax statistics: the running maximum m and the sum s of exp(x - m) over what was seen.
struct Stats {
  float m = -INFINITY;
  double s = 0.0;
  __device__ void add(float x) {
    if (x > m) {
      s = s * exp(double(m) - double(x)) + 1.0;  // exp(-inf) = 0 on the first element
      m = x;
    } else {
      s += exp(double(x) - double(m));
    }
  }
  __device__ void merge(float m2, double s2) {
    if (m2 == -INFINITY) return;
    if (m2 > m) {
      s = s * exp(double(m) - double(m2)) + s2;
      m = m2;
    } else {
      s += s2 * exp(double(m2) - double(m));
    }
  }
};

// Block-wide merge of the threads' pairs in a fixed tree; valid in thread 0.
__device__ Stats block_merge(Stats t) {
  __shared__ float sm[kBlock];
  __shared__ double ss[kBlock];
  sm[threadIdx.x] = t.m;
  ss[threadIdx.x] = t.s;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half >>= 1) {
    if (threadIdx.x < half) {
      Stats a{sm[threadIdx.x], ss[threadIdx.x]};
      a.merge(sm[threadIdx.x + half], ss[threadIdx.x + half]);
      sm[threadIdx.x] = a.m;
      ss[threadIdx.x] = a.s;
    }
    __syncthreads();
  }
  return Stats{sm[0], ss[0]};
}

__global__ void stats_kernel(const float* x, std::int64_t n, bool vec) {
  Stats t;
  const std::int64_t first = blockIdx.x * std::int64_t(kBlock) + threadIdx.x;
  const std::int64_t stride = std::int64_t(gridDim.x) * kBlock;
  std::int64_t scalar_from = 0;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const std::int64_t n4 = n / 4;
    std::int64_t i = first;
    for (; i + stride < n4; i += 2 * stride) {  // two 16-byte loads in flight per thread
      const float4 a = x4[i], b = x4[i + stride];
      t.add(a.x), t.add(a.y), t.add(a.z), t.add(a.w);
      t.add(b.x), t.add(b.y), t.add(b.z), t.add(b.w);
    }
    if (i < n4) {
      const float4 a = x4[i];
      t.add(a.x), t.add(a.y), t.add(a.z), t.add(a.w);
    }
    scalar_from = 4 * n4;
  }
  for (std::int64_t i = scalar_from + first; i < n; i += stride) t.add(x[i]);
  const Stats b = block_merge(t);
  if (threadIdx.x == 0) {
    g_block_max[blockIdx.x] = b.m;
    g_block_sum[blockIdx.x] = b.s;
  }
}

__global__ void combine_kernel(int partials) {
  Stats t;
  for (int i = threadIdx.x; i < partials; i += kBlock) t.merge(g_block_max[i], g_block_sum[i]);
  const Stats b = block_merge(t);
  if (threadIdx.x == 0) {
    g_max = b.m;
    g_inv_sum = 1.0 / b.s;
  }
}

// Chunks of kBlock float4s, taken from the end of the array backwards (see the header).
__global__ void normalize_kernel(const float* x, float* y, std::int64_t n, bool vec) {
  const double m = g_max;
  const double inv_sum = g_inv_sum;
  auto f = [&](float v) { return static_cast<float>(exp(double(v) - m) * inv_sum); };
  std::int64_t scalar_from = 0;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    const std::int64_t n4 = n / 4;
    const std::int64_t chunks = (n4 + kBlock - 1) / kBlock;
    for (std::int64_t c = chunks - 1 - blockIdx.x; c >= 0; c -= gridDim.x) {
      const std::int64_t i = c * kBlock + threadIdx.x;
      if (i < n4) {
        const float4 v = x4[i];
        y4[i] = make_float4(f(v.x), f(v.y), f(v.z), f(v.w));
      }
    }
    scalar_from = 4 * n4;
  }
  const std::int64_t first = blockIdx.x * std::int64_t(kBlock) + threadIdx.x;
  for (std::int64_t i = scalar_from + first; i < n; i += std::int64_t(gridDim.x) * kBlock) y[i] = f(x[i]);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const std::int64_t n = a.scalar<int>("N");
  if (n <= 0) return;
  const float* x = a.input<float>("input");
  float* y = a.output<float>("output");
  const bool vec = judge::ref::aligned16(x, y);
  static const unsigned resident = judge::ref::resident_blocks(stats_kernel, kBlock, kId);
  const unsigned blocks = judge::ref::grid_for((n + 3) / 4, kBlock, std::min<unsigned>(resident, kMaxPartials));
  stats_kernel<<<blocks, kBlock, 0, s>>>(x, n, vec);
  judge::ref::check_launch(kId, "stats_kernel");
  combine_kernel<<<1, kBlock, 0, s>>>(static_cast<int>(blocks));
  judge::ref::check_launch(kId, "combine_kernel");
  static const unsigned resident_normalize = judge::ref::resident_blocks(normalize_kernel, kBlock, kId);
  normalize_kernel<<<judge::ref::grid_for((n + 3) / 4, kBlock, resident_normalize), kBlock, 0, s>>>(x, y, n, vec);
  judge::ref::check_launch(kId, "normalize_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t n = a.scalar<int>("N");
  const float* x = a.input<float>("input");
  double* y = a.output("output");
  double m = -INFINITY;
  for (std::int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) sum += std::exp(double(x[i]) - m);
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::exp(double(x[i]) - m) / sum;
}

}  // namespace

JUDGE_REFERENCE(softmax, gpu, cpu)
