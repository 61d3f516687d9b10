// Reference for challenges/fp16_batched_matmul: C[b] (M x N) = A[b] (M x K) * B[b] (K x N) for b in [0, BATCH),
// row-major half matrices stored one after another. cublasGemmStridedBatchedEx multiplies the half inputs on tensor
// cores with float accumulation (CUBLAS_COMPUTE_32F) and writes the sums as floats to a scratch buffer; a second kernel
// rounds them to half once, the challenge's definition. (With half output cuBLAS may split a long K into parts and add
// the parts in half, as the gemm reference found on its 17 x 19 x 4095 test: up to 0.1 of the tolerance.)
#include <cstdint>

#include <cuda_fp16.h>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"
#include "reference/round_to_half.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "fp16_batched_matmul";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int batch = a.scalar<int>("BATCH");
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  if (batch <= 0 || M <= 0 || N <= 0 || K <= 0) return;
  const std::int64_t n = std::int64_t(batch) * M * N;
  static judge::ref::Scratch scratch(kId, "A B in float");
  float* S = scratch.get<float>(static_cast<std::size_t>(n));
  // Default math: FP16 tensor cores with FP32 accumulation are full precision for this problem (the pedantic mode
  // exists to keep TF32 out of FP32 GEMMs). alpha and beta are host floats, as CUBLAS_COMPUTE_32F requires.
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_DEFAULT_MATH, kId);
  // cuBLAS is column-major. A row-major R x C matrix is, read column-major, its C x R transpose, so each row-major
  // S[b] = A[b] B[b] is column-major S[b]^T = B[b]^T A[b]^T: an (N x K) times (K x M) product with leading dimensions
  // N, K and N. Matrix b of each operand starts b times its own size after the first: strides K*N, M*K and M*N.
  const float one = 1.0f, zero = 0.0f;
  judge::ref::check_cublas(
      cublasGemmStridedBatchedEx(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, a.input<__half>("B"),
                                 CUDA_R_16F, N, std::int64_t(K) * N, a.input<__half>("A"), CUDA_R_16F, K,
                                 std::int64_t(M) * K, &zero, S, CUDA_R_32F, N, std::int64_t(M) * N, batch,
                                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
      kId, "cublasGemmStridedBatchedEx");
  judge::ref::round_to_half(kId, S, a.output<__half>("C"), n, s);
}

void cpu(judge::HostArgs& a) {
  const std::int64_t batch = a.scalar<int>("BATCH");
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t K = a.scalar<int>("K");
  const __half* A = a.input<__half>("A");
  const __half* B = a.input<__half>("B");
  double* C = a.output("C");
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) {
        double acc = 0.0;
        for (std::int64_t k = 0; k < K; ++k)
          acc += double(__half2float(A[(b * M + i) * K + k])) * double(__half2float(B[(b * K + k) * N + j]));
        C[(b * M + i) * N + j] = acc;
      }
}

}  // namespace

JUDGE_REFERENCE(fp16_batched_matmul, gpu, cpu)
