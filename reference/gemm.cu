// Reference for challenges/gemm: C = alpha * A B + beta * C in place, A (M x K), B (K x N), C (M x N) row-major half.
// cublasGemmEx multiplies the half inputs on tensor cores with float accumulation (CUBLAS_COMPUTE_32F) and writes
// alpha * A B as floats to a scratch buffer; a second kernel forms alpha * A B + beta * C in float and rounds to half
// once, the challenge's definition. (With half output cuBLAS may split a long K into parts and add the parts in half:
// on the 17 x 19 x 4095 test that moved results by up to 0.1 of the tolerance from the float sum.)
#include <cstdint>

#include <cuda_fp16.h>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "gemm";

// C = half(S + beta * C), with S = alpha * A B in float; C is read only where beta != 0, as in BLAS. Four elements per
// step (16-byte loads of S, 8-byte loads and stores of C) where C is 8-byte aligned, then the rest one by one.
__global__ void epilogue_kernel(const float* S, __half* C, std::int64_t n, float beta) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t quads = reinterpret_cast<std::uintptr_t>(C) % 8 == 0 ? n / 4 : 0;
  for (std::int64_t q = first; q < quads; q += stride) {
    const float4 s = reinterpret_cast<const float4*>(S)[q];
    uint2 raw = beta != 0.0f ? reinterpret_cast<const uint2*>(C)[q] : make_uint2(0u, 0u);  // zeros are +0.0 halves
    __half2* c = reinterpret_cast<__half2*>(&raw);
    const float2 c01 = __half22float2(c[0]), c23 = __half22float2(c[1]);
    c[0] = __floats2half2_rn(s.x + beta * c01.x, s.y + beta * c01.y);
    c[1] = __floats2half2_rn(s.z + beta * c23.x, s.w + beta * c23.y);
    reinterpret_cast<uint2*>(C)[q] = raw;
  }
  for (std::int64_t i = 4 * quads + first; i < n; i += stride)
    C[i] = __float2half_rn(S[i] + (beta != 0.0f ? beta * __half2float(C[i]) : 0.0f));
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  const float alpha = a.scalar<float>("alpha");
  const float beta = a.scalar<float>("beta");
  if (M <= 0 || N <= 0) return;
  const std::int64_t n = std::int64_t(M) * N;
  static judge::ref::Scratch scratch(kId, "alpha * A B in float");
  float* S = scratch.get<float>(static_cast<std::size_t>(n));
  // C is in-out: the judge hands the reference its own copy holding the generated C, updated in place here.
  __half* C = a.output<__half>("C");
  // Default math: FP16 tensor cores with FP32 accumulation are full precision for this problem (the pedantic mode
  // exists to keep TF32 out of FP32 GEMMs). alpha and beta are host floats, as CUBLAS_COMPUTE_32F requires.
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  // cuBLAS is column-major. A row-major R x C matrix is, read column-major, its C x R transpose, so row-major
  // S = A B is column-major S^T = B^T A^T: an (N x K) times (K x M) product with leading dimensions N, K and N.
  const float zero = 0.0f;
  judge::ref::check_cublas(cublasGemmEx(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha,
                                        a.input<__half>("B"), CUDA_R_16F, N, a.input<__half>("A"), CUDA_R_16F,
                                        K > 0 ? K : 1, &zero, S, CUDA_R_32F, N, CUBLAS_COMPUTE_32F,
                                        CUBLAS_GEMM_DEFAULT),
                           kId, "cublasGemmEx");
  epilogue_kernel<<<judge::ref::grid_for((n + 3) / 4), judge::ref::kBlock, 0, s>>>(S, C, n, beta);
  judge::ref::check_launch(kId, "epilogue_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t K = a.scalar<int>("K");
  const double alpha = a.scalar<float>("alpha");
  const double beta = a.scalar<float>("beta");
  const __half* A = a.input<__half>("A");
  const __half* B = a.input<__half>("B");
  const __half* C_in = a.input<__half>("C");  // the generated C; the result goes to the float64 output
  double* C = a.output("C");
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      double acc = 0.0;
      for (std::int64_t k = 0; k < K; ++k)
        acc += double(__half2float(A[i * K + k])) * double(__half2float(B[k * N + j]));
      C[i * N + j] = alpha * acc + beta * double(__half2float(C_in[i * N + j]));
    }
}

}  // namespace

JUDGE_REFERENCE(gemm, gpu, cpu)
