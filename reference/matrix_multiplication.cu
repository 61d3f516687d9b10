// Reference for challenges/matrix_multiplication: C (M x K) = A (M x N) * B (N x K), row-major float32, by cuBLAS
// SGEMM in strict FP32 (CUBLAS_PEDANTIC_MATH: no TF32 or other reduced-precision tensor-core paths, which would be
// less accurate than the submissions the tolerance is meant to hold to).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"

namespace {

constexpr const char* kId = "matrix_multiplication";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  if (M <= 0 || N <= 0 || K <= 0) return;
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  // cuBLAS is column-major. A row-major R x C matrix is the column-major C x R matrix of its transpose, so
  // row-major C = A B is column-major C^T = B^T A^T: a (K x N) times (N x M) product with leading dimensions K, N, K.
  const float alpha = 1.0f, beta = 0.0f;
  judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &alpha,
                                       a.input<float>("B"), K, a.input<float>("A"), N, &beta, a.output<float>("C"), K),
                           kId, "cublasSgemm");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t K = a.scalar<int>("K");
  judge::ref::matmul_cpu(a.input<float>("A"), a.input<float>("B"), a.output("C"), M, N, K);
}

}  // namespace

JUDGE_REFERENCE(matrix_multiplication, gpu, cpu)
