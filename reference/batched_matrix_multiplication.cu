// Reference for challenges/batched_matrix_multiplication: C[b] (M x N) = A[b] (M x K) * B[b] (K x N) for b in
// [0, BATCH), row-major float32 matrices stored one after another, by cublasSgemmStridedBatched in strict FP32
// (CUBLAS_PEDANTIC_MATH: no TF32 or other reduced-precision tensor-core paths, which would be less accurate than the
// submissions the tolerance is meant to hold to).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"

namespace {

constexpr const char* kId = "batched_matrix_multiplication";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int batch = a.scalar<int>("BATCH");
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  if (batch <= 0 || M <= 0 || N <= 0 || K <= 0) return;
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  // cuBLAS is column-major. A row-major R x C matrix is, read column-major, its C x R transpose, so each row-major
  // C[b] = A[b] B[b] is column-major C[b]^T = B[b]^T A[b]^T: an (N x K) times (K x M) product with leading dimensions
  // N, K and N. Matrix b of each operand starts b times its own size after the first: strides K*N, M*K and M*N.
  const float alpha = 1.0f, beta = 0.0f;
  judge::ref::check_cublas(
      cublasSgemmStridedBatched(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, a.input<float>("B"), N,
                                std::int64_t(K) * N, a.input<float>("A"), K, std::int64_t(M) * K, &beta,
                                a.output<float>("C"), N, std::int64_t(M) * N, batch),
      kId, "cublasSgemmStridedBatched");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t batch = a.scalar<int>("BATCH");
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t K = a.scalar<int>("K");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  double* C = a.output("C");
  for (std::int64_t b = 0; b < batch; ++b) judge::ref::matmul_cpu(A + b * M * K, B + b * K * N, C + b * M * N, M, K, N);
}

}  // namespace

JUDGE_REFERENCE(batched_matrix_multiplication, gpu, cpu)
