// Reference for challenges/int4_matmul: y = x W^T, x (M x K) half, y (M x N) half, W (N x K) the packed int4
// weights dequantized group-wise: W[n][k] = (nibble(n, k) - 8) * scales[n][k / group_size], where weight k = 2i is the
// high nibble of w_q[n][i] and k = 2i + 1 the low one. LeetGPU's reference dequantizes in float32 and multiplies in
// float32; so does this one, to float rounding.
//
// A weight (nibble - 8) * scale has up to 14 significant bits (11 of the half scale, 3 of the integer), so rounding W
// to half for a half GEMM would move it by up to 2^-12 relative: at K = 4096 that alone reaches 1.3x the tolerance
// (statement, Tolerance). Instead W = W_hi + W_lo exactly, both half: W_hi = half(W) and W_lo = W - W_hi, which has at most 3
// significant bits and is a multiple of the scale's last place, so it is exact in half for every finite scale below
// 8188 (past that W overflows half). Then y = x W_hi^T + x W_lo^T by two cuBLAS GEMMs (half inputs, float accumulation
// on tensor cores: the products of halves are exact, the sums float) into a float scratch, and one rounding to half.
// The dequantization kernel also reports whether any W_lo is non-zero; where none is (scales with at most 8
// significant bits, as in the benchmarks, make every W exact in half) the second GEMM is skipped. That costs one
// stream synchronisation (a few microseconds) and halves the work. A float32 SGEMM on a float W would be exact too,
// but without tensor cores it runs at a small fraction of the half GEMM's rate (about 51 TFLOP/s on an H200).
#include <cmath>
#include <cstdint>

#include <cuda_fp16.h>

#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/round_to_half.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "int4_matmul";

// Weight j of the flat N x K matrix: its nibble is byte j / 2 of w_q, the high one for even j; its scale is
// scales[j / group_size], because K is a multiple of group_size (row n's groups start at n * K / group_size). The two
// weights of a byte share their scale, group_size being even. Writes W_hi and W_lo; returns whether W_lo is non-zero.
__device__ inline bool split_weight(unsigned nibble, float scale, __half& hi, __half& lo) {
  const float w = float(int(nibble) - 8) * scale;  // exact: 4 bits times 11 bits
  hi = __float2half_rn(w);
  lo = __float2half_rn(w - __half2float(hi));       // w - hi is exact in float, and lo exact in half (see above)
  return (__half_as_ushort(lo) & 0x7fffu) != 0;
}

// W_hi, W_lo (N x K half each) from w_q (N x K/2 bytes, `bytes` in all); sets *any_lo where some W_lo is non-zero.
// Four bytes (eight weights) per step, a 4-byte load and two 16-byte stores, where w_q is 4-byte aligned (hi and lo
// are scratch, 256-byte aligned); the remaining bytes one by one. Weight indices fit in 32 bits: N*K/2 < 2^31.
__global__ void dequant_split_kernel(const std::uint8_t* w_q, const __half* scales, __half* hi, __half* lo,
                                     std::int64_t bytes, unsigned group_size, int* any_lo) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t quads = reinterpret_cast<std::uintptr_t>(w_q) % 4 == 0 ? bytes / 4 : 0;
  bool nonzero = false;
  for (std::int64_t p = first; p < quads; p += stride) {
    const unsigned packed = reinterpret_cast<const unsigned*>(w_q)[p];
    __align__(16) __half h[8], l[8];
    for (int b = 0; b < 4; ++b) {
      const unsigned byte = (packed >> (8 * b)) & 0xffu;  // little-endian: byte 4p + b
      const float scale = __half2float(scales[(unsigned(8 * p) + 2u * unsigned(b)) / group_size]);
      nonzero |= split_weight(byte >> 4, scale, h[2 * b], l[2 * b]);
      nonzero |= split_weight(byte & 0xfu, scale, h[2 * b + 1], l[2 * b + 1]);
    }
    reinterpret_cast<uint4*>(hi)[p] = *reinterpret_cast<const uint4*>(h);
    reinterpret_cast<uint4*>(lo)[p] = *reinterpret_cast<const uint4*>(l);
  }
  for (std::int64_t i = 4 * quads + first; i < bytes; i += stride) {
    const unsigned byte = w_q[i];
    const unsigned j = unsigned(2 * i);
    const float scale = __half2float(scales[j / group_size]);
    nonzero |= split_weight(byte >> 4, scale, hi[j], lo[j]);
    nonzero |= split_weight(byte & 0xfu, scale, hi[j + 1], lo[j + 1]);
  }
  if (__syncthreads_or(nonzero) && threadIdx.x == 0) atomicOr(any_lo, 1);
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  const int group_size = a.scalar<int>("group_size");
  if (M <= 0 || N <= 0) return;
  const std::int64_t weights = std::int64_t(N) * K;
  const std::int64_t outputs = std::int64_t(M) * N;
  static judge::ref::Scratch w_scratch(kId, "W_hi and W_lo (half)");
  static judge::ref::Scratch s_scratch(kId, "x W^T in float");
  static judge::ref::Scratch flag_scratch(kId, "W_lo non-zero flag");
  const std::int64_t lo_offset = (weights + 7) / 8 * 8;  // keeps W_lo 16-byte aligned for the kernel's stores
  __half* W_hi = w_scratch.get<__half>(std::size_t(lo_offset + weights));
  __half* W_lo = W_hi + lo_offset;
  float* S = s_scratch.get<float>(std::size_t(outputs));
  int* any_lo = flag_scratch.get<int>(1);

  bool need_lo = false;
  if (K > 0) {
    judge::ref::check_cuda(cudaMemsetAsync(any_lo, 0, sizeof(int), s), kId, "cudaMemsetAsync(flag)");
    const std::int64_t bytes = weights / 2;
    dequant_split_kernel<<<judge::ref::grid_for((bytes + 3) / 4), judge::ref::kBlock, 0, s>>>(
        a.input<std::uint8_t>("w_q"), a.input<__half>("scales"), W_hi, W_lo, bytes, unsigned(group_size), any_lo);
    judge::ref::check_launch(kId, "dequant_split_kernel");
    int flag = 0;
    judge::ref::check_cuda(cudaMemcpyAsync(&flag, any_lo, sizeof(int), cudaMemcpyDeviceToHost, s), kId,
                           "cudaMemcpyAsync(flag)");
    judge::ref::check_cuda(cudaStreamSynchronize(s), kId, "cudaStreamSynchronize");
    need_lo = flag != 0;
  }

  // cuBLAS is column-major. Row-major y (M x N) is column-major y^T (N x M) = W x^T: W row-major N x K read
  // column-major is W^T (K x N, ld K), so op T gives W; x row-major M x K read column-major is x^T (K x M, ld K).
  // Both operands K-contiguous ("TN"), the tensor cores' preferred form. K = 0 leaves S = 0 (beta = 0).
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  const float one = 1.0f, zero = 0.0f;
  const int ld = K > 0 ? K : 1;
  judge::ref::check_cublas(cublasGemmEx(cublas.handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, W_hi, CUDA_R_16F,
                                        ld, a.input<__half>("x"), CUDA_R_16F, ld, &zero, S, CUDA_R_32F, N,
                                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                           kId, "cublasGemmEx(x W_hi^T)");
  if (need_lo)
    judge::ref::check_cublas(cublasGemmEx(cublas.handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, W_lo,
                                          CUDA_R_16F, ld, a.input<__half>("x"), CUDA_R_16F, ld, &one, S, CUDA_R_32F,
                                          N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                             kId, "cublasGemmEx(+= x W_lo^T)");
  judge::ref::round_to_half(kId, S, a.output<__half>("y"), outputs, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t K = a.scalar<int>("K");
  const std::int64_t group_size = a.scalar<int>("group_size");
  const __half* x = a.input<__half>("x");
  const std::uint8_t* w_q = a.input<std::uint8_t>("w_q");
  const __half* scales = a.input<__half>("scales");
  double* y = a.output("y");
  const std::int64_t groups = K / group_size;
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t n = 0; n < N; ++n) {
      double acc = 0.0;
      for (std::int64_t k = 0; k < K; ++k) {
        const std::uint8_t byte = w_q[n * (K / 2) + k / 2];
        const int nibble = k % 2 == 0 ? byte >> 4 : byte & 0xf;
        const double w = double(nibble - 8) * double(__half2float(scales[n * groups + k / group_size]));
        acc += double(__half2float(x[m * K + k])) * w;
      }
      y[m * N + n] = acc;
    }
}

// "short_mantissa": uniform in [low, high), each value rounded down to args.bits significant bits (floating dtypes).
// The benchmarks draw their scales this way with 8 bits, so that (nibble - 8) * scale has at most 11 significant bits
// and is exact in half: dequantizing W to half, as LeetGPU's statement describes it, is then exact too.
struct ShortMantissa {
  double low, width;
  int bits;
  std::uint64_t key;
  JUDGE_HD double operator()(std::int64_t i) const {
    const double v = low + width * judge::gen::unit(key, std::uint64_t(i));
    if (v == 0.0) return 0.0;
    int e = 0;
    const double f = frexp(v, &e);  // v = f * 2^e, 0.5 <= |f| < 1
    return ldexp(trunc(ldexp(f, bits)), e - bits);
  }
};

void short_mantissa(const judge::GeneratorCall& c) {
  if (!judge::is_floating(c.dtype))
    JUDGE_THROW(judge::Error, "generator 'short_mantissa' makes floating-point values; the buffer is {}",
                judge::to_string(c.dtype));
  const double bits = c.arg("bits");
  if (!(bits >= 1 && bits <= 52) || bits != std::floor(bits))
    JUDGE_THROW(judge::Error, "generator 'short_mantissa': bits = {} is not a whole number in [1, 52]", bits);
  judge::gen::fill(c, ShortMantissa{c.dist.low, c.dist.high - c.dist.low, int(bits), c.key});
}

}  // namespace

JUDGE_REFERENCE(int4_matmul, gpu, cpu)
JUDGE_GENERATOR(short_mantissa, short_mantissa)
