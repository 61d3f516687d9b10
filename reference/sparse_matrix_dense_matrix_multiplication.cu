// Reference for challenges/sparse_matrix_dense_matrix_multiplication: C (M x K) = A (M x N) B (N x K), row-major
// float32, where A is stored densely and holds nnz non-zeros (about 35% of its elements in LeetGPU's cases).
//
// A arrives dense, so a kernel must read all M * N of its elements anyway, and at 35% density skipping the zeros saves
// less than it costs (a compressed copy to build, irregular rows, no register tiling): the fastest exact method is a
// dense product. So the GPU reference is cuBLAS SGEMM in strict FP32 (CUBLAS_PEDANTIC_MATH: no TF32 tensor-core path,
// which the tolerance would not admit), as in matrix_multiplication; the zeros of A contribute exact zeros to its sums.
// The CPU reference walks each row's non-zeros in double precision.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/cublas_scope.cuh"

namespace {

constexpr const char* kId = "sparse_matrix_dense_matrix_multiplication";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  if (M <= 0 || K <= 0) return;
  float* C = a.output<float>("C");
  if (N <= 0) {
    judge::ref::check_cuda(cudaMemsetAsync(C, 0, sizeof(float) * std::size_t(M) * std::size_t(K), s), kId,
                           "cudaMemsetAsync");
    return;
  }
  const judge::ref::CublasScope cublas(a.cublas(), s, CUBLAS_PEDANTIC_MATH, kId);
  // cuBLAS is column-major. A row-major R x C matrix is the column-major C x R matrix of its transpose, so
  // row-major C = A B is column-major C^T = B^T A^T: a (K x N) times (N x M) product with leading dimensions K, N, K.
  const float alpha = 1.0f, beta = 0.0f;
  judge::ref::check_cublas(cublasSgemm(cublas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &alpha,
                                       a.input<float>("B"), K, a.input<float>("A"), N, &beta, C, K),
                           kId, "cublasSgemm");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t K = a.scalar<int>("K");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  double* C = a.output("C");
  for (std::int64_t i = 0; i < M; ++i) {
    double* c = C + i * K;
    for (std::int64_t j = 0; j < K; ++j) c[j] = 0.0;
    for (std::int64_t n = 0; n < N; ++n) {
      const double v = A[i * N + n];
      if (v == 0.0) continue;
      const float* b = B + n * K;
      for (std::int64_t j = 0; j < K; ++j) c[j] += v * double(b[j]);
    }
  }
}

}  // namespace

JUDGE_REFERENCE(sparse_matrix_dense_matrix_multiplication, gpu, cpu)
