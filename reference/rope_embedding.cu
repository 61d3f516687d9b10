// Reference for challenges/rope_embedding: rotary positional embedding in the half-split ("rotate_half") layout.
// Row r of Q (D floats, h = D / 2) is rotated pair by pair, element k pairing with element k + h:
//   output[r][k]     = Q[r][k]     * cos[r][k]     - Q[r][k + h] * sin[r][k]
//   output[r][k + h] = Q[r][k + h] * cos[r][k + h] + Q[r][k]     * sin[r][k + h]      (0 <= k < h)
// The statement guarantees cos[r][k + h] == cos[r][k] and sin[r][k + h] == sin[r][k] (the generators below make
// every case so), so this kernel reads only the first half of each table row: 12 bytes per element instead of 16,
// the least any kernel moves and the spec's bytes count. The CPU reference reads both halves, as the formula is
// written, so the GPU-versus-CPU test also proves every test input is half-split.
// Each output is a 2x2 determinant evaluated by Kahan's algorithm (det2 below): relative error at most 2^-23 (under
// 2 ulp; 1 ulp at most in 50 million simulated cases) even where the two products cancel, at float speed.
//
// A thread takes 4 consecutive pairs of one row: float4 loads of Q's two halves, of cos and of sin, two float4
// stores. That needs h % 4 == 0 (D % 8 == 0) and 16-byte aligned pointers; other shapes go one pair per thread.
//
// Also the generators "half_split" and "rope_angles" (below), which draw the cos and sin tables.
#include <cmath>
#include <cstdint>

#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "rope_embedding";
constexpr int kBlock = judge::ref::kBlock;

// a * b - c * d by Kahan's algorithm: w = c * d rounded, e = w - c * d exactly (an FMA recovers a product's rounding
// error), f = a * b - w with one rounding; f + e has relative error at most 2^-23, however much a * b and c * d cancel
// (Jeannerod, Louvet and Muller, Math. Comp. 2013). Four float operations, no conversions to double.
__device__ __forceinline__ float det2(float a, float b, float c, float d) {
  const float w = __fmul_rn(c, d);  // _rn: never contracted into an FMA
  const float e = fmaf(-c, d, w);
  const float f = fmaf(a, b, -w);
  return __fadd_rn(f, e);
}
__device__ __forceinline__ float rotate_lo(float q1, float q2, float c, float s) { return det2(q1, c, q2, s); }
__device__ __forceinline__ float rotate_hi(float q1, float q2, float c, float s) { return det2(q2, c, -q1, s); }

// n = M * (h / 4) groups of 4 pairs; group g is row g / per_row, pairs 4 * (g % per_row) .. + 3. M * D <= 2^27, so
// the group index fits 32 bits and the division stays a 32-bit one.
__global__ void rope4_kernel(const float* __restrict__ q, const float* __restrict__ cs, const float* __restrict__ sn,
                             float* __restrict__ out, unsigned n, unsigned per_row, int D, int h) {
  for (unsigned g = blockIdx.x * kBlock + threadIdx.x; g < n; g += gridDim.x * kBlock) {
    const unsigned r = g / per_row;
    const std::int64_t lo = std::int64_t(r) * D + 4 * (g - r * per_row);
    const float4 q1 = __ldg(reinterpret_cast<const float4*>(q + lo));
    const float4 q2 = __ldg(reinterpret_cast<const float4*>(q + lo + h));
    const float4 c = __ldg(reinterpret_cast<const float4*>(cs + lo));
    const float4 s = __ldg(reinterpret_cast<const float4*>(sn + lo));
    *reinterpret_cast<float4*>(out + lo) =
        make_float4(rotate_lo(q1.x, q2.x, c.x, s.x), rotate_lo(q1.y, q2.y, c.y, s.y), rotate_lo(q1.z, q2.z, c.z, s.z),
                    rotate_lo(q1.w, q2.w, c.w, s.w));
    *reinterpret_cast<float4*>(out + lo + h) =
        make_float4(rotate_hi(q1.x, q2.x, c.x, s.x), rotate_hi(q1.y, q2.y, c.y, s.y), rotate_hi(q1.z, q2.z, c.z, s.z),
                    rotate_hi(q1.w, q2.w, c.w, s.w));
  }
}

// One pair a thread: n = M * h pairs, pair p is row p / h, element p % h and its partner p % h + h.
__global__ void rope1_kernel(const float* __restrict__ q, const float* __restrict__ cs, const float* __restrict__ sn,
                             float* __restrict__ out, unsigned n, int D, int h) {
  for (unsigned p = blockIdx.x * kBlock + threadIdx.x; p < n; p += gridDim.x * kBlock) {
    const unsigned r = p / unsigned(h);
    const std::int64_t lo = std::int64_t(r) * D + (p - r * unsigned(h));
    const float q1 = q[lo], q2 = q[lo + h], c = cs[lo], s = sn[lo];
    out[lo] = rotate_lo(q1, q2, c, s);
    out[lo + h] = rotate_hi(q1, q2, c, s);
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int D = a.scalar<int>("D");
  const int h = D / 2;
  if (M <= 0 || h <= 0) return;
  const float* q = a.input<float>("Q");
  const float* cs = a.input<float>("cos");
  const float* sn = a.input<float>("sin");
  float* out = a.output<float>("output");
  if (h % 4 == 0 && judge::ref::aligned16(q, cs, sn, out)) {
    const unsigned n = static_cast<unsigned>(std::int64_t(M) * (h / 4));
    rope4_kernel<<<judge::ref::grid_for(n), kBlock, 0, s>>>(q, cs, sn, out, n, static_cast<unsigned>(h / 4), D, h);
    judge::ref::check_launch(kId, "rope4_kernel");
  } else {
    const unsigned n = static_cast<unsigned>(std::int64_t(M) * h);
    rope1_kernel<<<judge::ref::grid_for(n), kBlock, 0, s>>>(q, cs, sn, out, n, D, h);
    judge::ref::check_launch(kId, "rope1_kernel");
  }
}

// The formula as the statement writes it: output = Q * cos + rotate_half(Q) * sin, every table element read.
void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t D = a.scalar<int>("D");
  const std::int64_t h = D / 2;
  const float* q = a.input<float>("Q");
  const float* cs = a.input<float>("cos");
  const float* sn = a.input<float>("sin");
  double* y = a.output("output");
  for (std::int64_t r = 0; r < M; ++r)
    for (std::int64_t j = 0; j < D; ++j) {
      const std::int64_t i = r * D + j;
      const double rotated = j < h ? -double(q[i + h]) : double(q[i - h]);
      y[i] = double(q[i]) * cs[i] + rotated * sn[i];
    }
}

// The table generators. Both take args.cols (the row length D, even); element (r, j) depends only on r and
// j % (cols / 2), so every row's second half repeats its first, as the statement guarantees.
void check_rows(const judge::GeneratorCall& c, const char* name) {
  if (!judge::is_floating(c.dtype))
    JUDGE_THROW(judge::Error, "generator '{}' makes floating-point tables; the buffer is {}", name,
                judge::to_string(c.dtype));
  const double cols = c.arg("cols");
  if (!(cols >= 2) || std::fmod(cols, 2.0) != 0 || std::fmod(static_cast<double>(c.count), cols) != 0)
    JUDGE_THROW(judge::Error, "generator '{}': cols = {} is not an even row length dividing the element count {}",
                name, cols, c.count);
}

// "half_split": random tables. With args.stddev: normal with mean 0 and that standard deviation (LeetGPU draws its
// tables from a standard normal); without: uniform in [low, high).
struct HalfSplit {
  std::int64_t cols, half;
  double low, width, stddev;  // stddev > 0: normal
  std::uint64_t key;
  JUDGE_HD double operator()(std::int64_t i) const {
    const std::int64_t r = i / cols, k = (i % cols) % half;
    const std::uint64_t u = static_cast<std::uint64_t>(r * half + k);
    if (stddev > 0) return stddev * judge::box_muller(judge::gen::unit(key, 2 * u), judge::gen::unit(key, 2 * u + 1));
    return low + width * judge::gen::unit(key, u);
  }
};

void half_split(const judge::GeneratorCall& c) {
  check_rows(c, "half_split");
  const auto cols = static_cast<std::int64_t>(c.arg("cols"));
  double stddev = 0.0;
  if (c.args.count("stddev")) {
    stddev = c.arg("stddev");
    if (!(stddev > 0)) JUDGE_THROW(judge::Error, "generator 'half_split': stddev = {} is not positive", stddev);
  }
  judge::gen::fill(c, HalfSplit{cols, cols / 2, c.dist.low, c.dist.high - c.dist.low, stddev, c.key});
}

// "rope_angles": the tables of a real model, row r being position r: cos (args.sine = 0) or sin (args.sine = 1) of
// r * base^(-2k / cols), k = j % (cols / 2), with args.base (10000 in most models). No randomness; low and high are
// not used.
struct RopeAngles {
  std::int64_t cols, half;
  double base;
  bool sine;
  JUDGE_HD double operator()(std::int64_t i) const {
    const std::int64_t r = i / cols, k = (i % cols) % half;
    const double angle = double(r) * pow(base, -2.0 * double(k) / double(cols));
    return sine ? sin(angle) : cos(angle);
  }
};

void rope_angles(const judge::GeneratorCall& c) {
  check_rows(c, "rope_angles");
  const auto cols = static_cast<std::int64_t>(c.arg("cols"));
  const double base = c.arg("base"), sine = c.arg("sine");
  if (!(base > 1)) JUDGE_THROW(judge::Error, "generator 'rope_angles': base = {} is not above 1", base);
  if (sine != 0 && sine != 1) JUDGE_THROW(judge::Error, "generator 'rope_angles': sine = {} is not 0 or 1", sine);
  judge::gen::fill(c, RopeAngles{cols, cols / 2, base, sine == 1});
}

}  // namespace

JUDGE_REFERENCE(rope_embedding, gpu, cpu)
JUDGE_GENERATOR(half_split, half_split)
JUDGE_GENERATOR(rope_angles, rope_angles)
