// Reference for challenges/weight_dequantization: Y[i][j] = X[i][j] * S[i / T][j / T] for an M x N row-major float32
// matrix X and its ceil(M / T) x ceil(N / T) row-major grid of scales S, T = TILE_SIZE (16, 32, 64 or 128). One float
// multiplication per element, correctly rounded: every correct float32 kernel produces these exact bits.
//
// It is also the speed yardstick, so it has the shape of judge::ref::map_elementwise (96-100% of copy bandwidth on an
// H200): a grid-stride loop of 16-byte loads and stores over X and Y as flat arrays, whatever N is. Each float4 finds
// its row and column with one division; where N % 4 == 0 its four elements share a row and, T being a multiple of 4,
// a tile, so they take one scale; otherwise the column walks across the four and wraps to the next row (any number of
// times for N < 4). S is tiny (at most 512 x 512) and is read through the read-only cache. Indices fit in 32 bits:
// M * N <= 2^26.
#include <cstdint>

#include "judge/core/base/error.hpp"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "weight_dequantization";
constexpr int kBlock = judge::ref::kBlock;

// The scale grid and how to index it; tile = 1 << shift.
struct Tiles {
  const float* __restrict__ S;
  unsigned N;
  unsigned shift;
  unsigned s_cols;
  __device__ float scale(unsigned row, unsigned col) const { return __ldg(S + (row >> shift) * s_cols + (col >> shift)); }
};

// Elements [0, 4 * quads) as float4s; then, in the same grid, the last n - 4 * quads (at most 3) one by one.
template <bool kQuadInRow>
__global__ void dequant_vec_kernel(const float4* __restrict__ X, float4* __restrict__ Y, unsigned quads, unsigned n,
                                   Tiles t) {
  const unsigned stride = gridDim.x * blockDim.x;
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned q = first; q < quads; q += stride) {
    const float4 x = X[q];
    unsigned row = 4 * q / t.N;
    unsigned col = 4 * q - row * t.N;
    float4 y;
    if constexpr (kQuadInRow) {
      const float s = t.scale(row, col);
      y = make_float4(x.x * s, x.y * s, x.z * s, x.w * s);
    } else {
      float v[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        v[k] *= t.scale(row, col);
        if (++col == t.N) col = 0, ++row;
      }
      y = make_float4(v[0], v[1], v[2], v[3]);
    }
    Y[q] = y;
  }
  const unsigned e = 4 * quads + first;
  if (e < n) {
    const unsigned row = e / t.N;
    reinterpret_cast<float*>(Y)[e] = reinterpret_cast<const float*>(X)[e] * t.scale(row, e - row * t.N);
  }
}

// Every element one by one: for pointers that are not 16-byte aligned (the judge's never are).
__global__ void dequant_scalar_kernel(const float* __restrict__ X, float* __restrict__ Y, unsigned n, Tiles t) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride) {
    const unsigned row = e / t.N;
    Y[e] = X[e] * t.scale(row, e - row * t.N);
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const unsigned M = a.scalar<int>("M"), N = a.scalar<int>("N"), T = a.scalar<int>("TILE_SIZE");
  if (M == 0 || N == 0) return;
  unsigned shift = 0;
  while ((1u << shift) < T) ++shift;
  if ((1u << shift) != T || T < 4)
    JUDGE_THROW(judge::Error, "reference '{}': TILE_SIZE = {} is not a power of two >= 4", kId, T);
  const Tiles t{a.input<float>("S"), N, shift, (N + T - 1) / T};
  const float* X = a.input<float>("X");
  float* Y = a.output<float>("Y");
  const unsigned n = M * N;
  if (judge::ref::aligned16(X, Y)) {
    const unsigned quads = n / 4;
    const unsigned blocks = judge::ref::grid_for(quads > 0 ? quads : 1);
    const float4* X4 = reinterpret_cast<const float4*>(X);
    float4* Y4 = reinterpret_cast<float4*>(Y);
    if (N % 4 == 0)
      dequant_vec_kernel<true><<<blocks, kBlock, 0, s>>>(X4, Y4, quads, n, t);
    else
      dequant_vec_kernel<false><<<blocks, kBlock, 0, s>>>(X4, Y4, quads, n, t);
    judge::ref::check_launch(kId, "dequant_vec_kernel");
  } else {
    dequant_scalar_kernel<<<judge::ref::grid_for(n), kBlock, 0, s>>>(X, Y, n, t);
    judge::ref::check_launch(kId, "dequant_scalar_kernel");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M"), N = a.scalar<int>("N"), T = a.scalar<int>("TILE_SIZE");
  const std::int64_t s_cols = (N + T - 1) / T;
  const float* X = a.input<float>("X");
  const float* S = a.input<float>("S");
  double* Y = a.output("Y");
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) Y[i * N + j] = double(X[i * N + j]) * double(S[(i / T) * s_cols + j / T]);
}

}  // namespace

JUDGE_REFERENCE(weight_dequantization, gpu, cpu)
