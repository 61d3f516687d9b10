// Reference for challenges/int8_quantized_matmul: C = clamp(round(acc * sA * sB / sC) + zC, -128, 127) with
// acc = sum_k (A[i][k] - zA)(B[k][j] - zB), A (M x K), B (K x N), C (M x N) row-major int8.
//
// The sums come from cuBLAS's int8 GEMM (int32 accumulation on tensor cores, exact) on the raw values, and the zero
// points are folded in afterwards: sum (a - zA)(b - zB) = sum ab - zB * rowsum_A[i] - zA * colsum_B[j] + K zA zB.
// cuBLAS's int8 tensor-core kernels want both operands K-contiguous ("TN") with leading dimensions that are multiples of
// 4, so B is first transposed into scratch; the column sums of B are then row sums of that copy. An epilogue kernel
// applies the correction and requantises, a block of rows at a time so that the int32 sums of a block stay in L2
// between the GEMM that writes them and the epilogue that reads them. Shapes cuBLAS cannot take (K not a multiple of 4,
// only in small tests) use a direct tiled kernel with the same requantisation.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "judge/core/run/output_diagnosis.hpp"
#include "judge/worker/check.hpp"
#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "int8_quantized_matmul";

struct Quant {
  int zA, zB, zC;
  int K;
  float sA, sB, inv_sC;  // inv_sC = 1.0f / scale_C, rounded to float once, on the host
};

// LeetGPU's reference evaluates `acc * scale_A * scale_B / scale_C` as float32 tensor operations from left to right,
// and PyTorch on CUDA divides by a scalar by multiplying with its float reciprocal: ((float(acc) * sA) * sB) * (1/sC),
// every step rounded to float. torch.round rounds halves to even (rintf), then zero_point_C is added and the result
// clamped. The tests are built so that every ordering of the scaling rounds alike (statement, Tolerance); this is the
// one LeetGPU's reference uses, bit for bit. No additions here, so nothing can be contracted into an FMA.
__host__ __device__ inline std::int8_t requantize(int acc, const Quant& q) {
  float v = static_cast<float>(acc) * q.sA;
  v = v * q.sB;
  v = v * q.inv_sC;
  const float r = fminf(fmaxf(rintf(v), -1024.0f), 1024.0f);  // beyond +-1024 the clamp below decides anyway
  const int out = static_cast<int>(r) + q.zC;
  return static_cast<std::int8_t>(out < -128 ? -128 : (out > 127 ? 127 : out));
}

// Bt (N x K) = B^T, B (K x N) row-major, through 32 x 32 shared-memory tiles (one-byte elements; B is the smaller
// operand and this pass costs a few percent of the GEMM).
__global__ void transpose_kernel(const std::int8_t* B, std::int8_t* Bt, int K, int N) {
  __shared__ std::int8_t tile[32][33];
  const int n0 = blockIdx.x * 32, k0 = blockIdx.y * 32;
  for (int r = threadIdx.y; r < 32; r += blockDim.y) {
    const int k = k0 + r, n = n0 + threadIdx.x;
    if (k < K && n < N) tile[r][threadIdx.x] = B[std::int64_t(k) * N + n];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < 32; r += blockDim.y) {
    const int n = n0 + r, k = k0 + threadIdx.x;
    if (n < N && k < K) Bt[std::int64_t(n) * K + k] = tile[threadIdx.x][r];
  }
}

// sums[r] = sum of row r of X (rows x cols, row-major int8), one warp per row. Exact in int32 (|sum| <= 128 * 4096).
__global__ void row_sums_kernel(const std::int8_t* X, int rows, int cols, int* sums) {
  const int warps = blockDim.x / 32;
  const int lane = threadIdx.x % 32;
  for (int r = blockIdx.x * warps + threadIdx.x / 32; r < rows; r += gridDim.x * warps) {
    const std::int8_t* row = X + std::int64_t(r) * cols;
    int s = 0;
    for (int c = lane; c < cols; c += 32) s += row[c];
    for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) sums[r] = s;
  }
}

// C[r][j] = requantize(S[r][j] - zB * row_A[r] - zA * col_B[j] + K zA zB) over rows x N elements, S int32 row-major
// and 16-byte aligned (scratch). Four elements per step (a 16-byte load of S, a 4-byte store of C) where C is 4-byte
// aligned, then the rest one by one. row_A / col_B are null where their zero point is 0. Every term is below 2^27 in
// magnitude (K <= 4096), so the int32 arithmetic cannot overflow.
__global__ void epilogue_kernel(const int* S, std::int8_t* C, int rows, int N, const int* row_A, const int* col_B,
                                Quant q) {
  const std::int64_t n = std::int64_t(rows) * N;
  const int constant = q.K * q.zA * q.zB;
  auto correct = [&](int s, std::int64_t r, std::int64_t j) {
    int acc = s + constant;
    if (row_A) acc -= q.zB * row_A[r];
    if (col_B) acc -= q.zA * col_B[j];
    return requantize(acc, q);
  };
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t quads = reinterpret_cast<std::uintptr_t>(C) % 4 == 0 ? n / 4 : 0;
  for (std::int64_t p = first; p < quads; p += stride) {
    const int4 s = reinterpret_cast<const int4*>(S)[p];
    const int sv[4] = {s.x, s.y, s.z, s.w};
    std::int64_t r = 4 * p / N, j = 4 * p - r * N;
    char4 out;
    std::int8_t* o = reinterpret_cast<std::int8_t*>(&out);
    for (int e = 0; e < 4; ++e) {
      o[e] = correct(sv[e], r, j);
      if (++j == N) j = 0, ++r;
    }
    reinterpret_cast<char4*>(C)[p] = out;
  }
  for (std::int64_t i = 4 * quads + first; i < n; i += stride) C[i] = correct(S[i], i / N, i % N);
}

// The fallback for shapes cuBLAS's int8 GEMM does not take: one output per thread, 16 x 16 tiles of A and B (zero
// points already subtracted, as int) in shared memory.
__global__ void direct_kernel(const std::int8_t* A, const std::int8_t* B, std::int8_t* C, int M, int N, int K, Quant q) {
  __shared__ int As[16][17], Bs[16][17];
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  int acc = 0;
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[std::int64_t(row) * K + ka] - q.zA : 0;
    Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[std::int64_t(kb) * N + col] - q.zB : 0;
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[std::int64_t(row) * N + col] = requantize(acc, q);
}

Quant quant_of(const judge::ArgTable& a, int K) {
  Quant q;
  q.zA = int(a.scalar_value("zero_point_A"));
  q.zB = int(a.scalar_value("zero_point_B"));
  q.zC = int(a.scalar_value("zero_point_C"));
  q.K = K;
  q.sA = float(a.scalar_value("scale_A"));
  q.sB = float(a.scalar_value("scale_B"));
  q.inv_sC = 1.0f / float(a.scalar_value("scale_C"));
  return q;
}

void direct(const std::int8_t* A, const std::int8_t* B, std::int8_t* C, int M, int N, int K, const Quant& q,
            cudaStream_t s) {
  const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16);
  direct_kernel<<<blocks, threads, 0, s>>>(A, B, C, M, N, K, q);
  judge::ref::check_launch(kId, "direct_kernel");
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  if (M <= 0 || N <= 0) return;
  const Quant q = quant_of(a, K);
  const std::int8_t* A = a.input<std::int8_t>("A");
  const std::int8_t* B = a.input<std::int8_t>("B");
  std::int8_t* C = a.output<std::int8_t>("C");
  // cuBLAS's int8 GEMM needs leading dimensions (here K, for both operands) that are multiples of 4 and 4-byte aligned
  // pointers; otherwise it answers CUBLAS_STATUS_NOT_SUPPORTED.
  if (K <= 0 || K % 4 != 0 || reinterpret_cast<std::uintptr_t>(A) % 4 != 0) return direct(A, B, C, M, N, K, q, s);

  static judge::ref::Scratch bt_scratch(kId, "B transposed");
  static judge::ref::Scratch sums_scratch(kId, "row sums of A and column sums of B");
  static judge::ref::Scratch acc_scratch(kId, "int32 sums of a block of rows");
  std::int8_t* Bt = bt_scratch.get<std::int8_t>(std::size_t(N) * K);
  int* sums = sums_scratch.get<int>(std::size_t(M) + N);
  int* row_A = q.zB != 0 ? sums : nullptr;      // needed only when it is multiplied by a non-zero zero point
  int* col_B = q.zA != 0 ? sums + M : nullptr;
  // Rows per block: a multiple of 256 (so C + r0 * N keeps C's alignment) whose int32 sums take at most 32 MiB, to stay
  // in an H100's or H200's L2 until the epilogue reads them; at least 256 rows, so that each GEMM still fills the GPU.
  const int fit = int((std::size_t(32) << 20) / (4 * std::size_t(N))) / 256 * 256;
  const int block_rows = std::min(M, std::max(256, fit));
  int* S = acc_scratch.get<int>(std::size_t(block_rows) * N);

  transpose_kernel<<<dim3((N + 31) / 32, (K + 31) / 32), dim3(32, 8), 0, s>>>(B, Bt, K, N);
  judge::ref::check_launch(kId, "transpose_kernel");
  if (row_A) {
    row_sums_kernel<<<judge::ref::grid_for(std::int64_t(M) * 32), judge::ref::kBlock, 0, s>>>(A, M, K, row_A);
    judge::ref::check_launch(kId, "row_sums_kernel(A)");
  }
  if (col_B) {
    row_sums_kernel<<<judge::ref::grid_for(std::int64_t(N) * 32), judge::ref::kBlock, 0, s>>>(Bt, N, K, col_B);
    judge::ref::check_launch(kId, "row_sums_kernel(B^T)");
  }

  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  const int one = 1, zero = 0;  // CUBLAS_COMPUTE_32I takes int32 alpha and beta
  for (int r0 = 0; r0 < M; r0 += block_rows) {
    const int rows = std::min(block_rows, M - r0);
    // cuBLAS is column-major: the row-major rows x N block S = A_blk B is the column-major N x rows matrix
    // S^T = B^T A_blk^T. Bt (row-major N x K) read column-major is K x N, so op T gives B^T (N x K) with ld K; A_blk
    // (row-major rows x K) read column-major is A_blk^T (K x rows), ld K. Both operands K-contiguous: "TN".
    const cublasStatus_t st =
        cublasGemmEx(cublas.handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, rows, K, &one, Bt, CUDA_R_8I, K,
                     A + std::int64_t(r0) * K, CUDA_R_8I, K, &zero, S, CUDA_R_32I, N, CUBLAS_COMPUTE_32I,
                     CUBLAS_GEMM_DEFAULT);
    if (st == CUBLAS_STATUS_NOT_SUPPORTED) return direct(A, B, C, M, N, K, q, s);  // redoes all of C
    judge::ref::check_cublas(st, kId, "cublasGemmEx(int8)");
    const std::int64_t n = std::int64_t(rows) * N;
    epilogue_kernel<<<judge::ref::grid_for((n + 3) / 4), judge::ref::kBlock, 0, s>>>(
        S, C + std::int64_t(r0) * N, rows, N, row_A ? row_A + r0 : nullptr, col_B, q);
    judge::ref::check_launch(kId, "epilogue_kernel");
  }
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  const Quant q = quant_of(a, K);
  const std::int8_t* A = a.input<std::int8_t>("A");
  const std::int8_t* B = a.input<std::int8_t>("B");
  double* C = a.output("C");
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      std::int64_t acc = 0;
      for (std::int64_t k = 0; k < K; ++k) acc += std::int64_t(A[i * K + k] - q.zA) * (B[k * N + j] - q.zB);
      C[i * N + j] = requantize(static_cast<int>(acc), q);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Checker "int8_rounding" (C): exact, as every integer output; on a mismatch it says when the wrong elements have the
// signature of rounding exact halves away from zero (roundf, lroundf) instead of to even. With e = expected -
// zero_point_C, the definition gives e from x = e + 0.5 (e even, e >= 0) or x = e - 0.5 (e even, e <= 0); away from
// zero gives e + 1 or e - 1. So every wrong element one step past the reference, away from zero, from an even e,
// is that mistake (seen in three real LeetGPU solutions).
constexpr std::int64_t kHostLimit = std::int64_t{1} << 26;

judge::OutputCheck int8_rounding(const judge::CheckRequest& q) {
  judge::OutputCheck r = judge::compare_output(q);
  if (r.mismatches == 0 || r.unwritten > 0 || q.count > kHostLimit) return r;
  const double zp = q.arg("zero_point_C");
  const std::vector<double> got = judge::download_as_double(q.got, q.dtype, q.count, q.stream);
  const std::vector<double> want = judge::download_as_double(q.expected, q.dtype, q.count, q.stream);
  std::int64_t wrong = 0, like_ties = 0;
  for (std::int64_t i = 0; i < q.count; ++i) {
    if (got[i] == want[i]) continue;
    ++wrong;
    const double d = got[i] - want[i], e = want[i] - zp;
    if (std::fabs(d) == 1 && std::fmod(e, 2.0) == 0 && (e == 0 || (d > 0) == (e > 0))) ++like_ties;
  }
  if (wrong > 0 && like_ties == wrong)
    r.message = judge::describe_wrong_output(r) +
                fmt::format("; every one of the {} wrong elements is one step further from zero than the reference, "
                            "from an even value of C - zero_point_C: exact halves (x.5) rounded away from zero "
                            "(roundf, lroundf), where the definition rounds them to the even neighbour (rintf, "
                            "nearbyintf, __float2int_rn; torch.round)",
                            wrong);
  return r;
}

}  // namespace

JUDGE_REFERENCE(int8_quantized_matmul, gpu, cpu)
JUDGE_CHECKER(int8_rounding, int8_rounding)
