// Reference for challenges/matrix_multiplication: C (M x K) = A (M x N) * B (N x K), row-major float32, by cuBLAS
// SGEMM in strict FP32 (CUBLAS_PEDANTIC_MATH: no TF32 or other reduced-precision tensor-core paths, which would be
// less accurate than the submissions the tolerance is meant to hold to).
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "matrix_multiplication";

// The handle is shared with other references: restore its math mode and stream however the call ends.
class HandleState {
 public:
  explicit HandleState(cublasHandle_t h) : h_(h) {
    judge::ref::check_cublas(cublasGetMathMode(h_, &mode_), kId, "cublasGetMathMode");
    judge::ref::check_cublas(cublasGetStream(h_, &stream_), kId, "cublasGetStream");
    judge::ref::check_cublas(cublasGetPointerMode(h_, &pointer_mode_), kId, "cublasGetPointerMode");
  }
  ~HandleState() {
    static_cast<void>(cublasSetMathMode(h_, mode_));
    static_cast<void>(cublasSetStream(h_, stream_));
    static_cast<void>(cublasSetPointerMode(h_, pointer_mode_));
  }
  HandleState(const HandleState&) = delete;
  HandleState& operator=(const HandleState&) = delete;

 private:
  cublasHandle_t h_;
  cublasMath_t mode_ = CUBLAS_DEFAULT_MATH;
  cudaStream_t stream_ = nullptr;
  cublasPointerMode_t pointer_mode_ = CUBLAS_POINTER_MODE_HOST;
};

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  const int K = a.scalar<int>("K");
  if (M <= 0 || N <= 0 || K <= 0) return;
  cublasHandle_t h = a.cublas();
  HandleState restore(h);
  judge::ref::check_cublas(cublasSetStream(h, s), kId, "cublasSetStream");
  judge::ref::check_cublas(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH), kId, "cublasSetMathMode(PEDANTIC)");
  judge::ref::check_cublas(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), kId, "cublasSetPointerMode");
  // cuBLAS is column-major. A row-major R x C matrix is the column-major C x R matrix of its transpose, so
  // row-major C = A B is column-major C^T = B^T A^T: a (K x N) times (N x M) product with leading dimensions K, N, K.
  const float alpha = 1.0f, beta = 0.0f;
  judge::ref::check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &alpha, a.input<float>("B"), K,
                                       a.input<float>("A"), N, &beta, a.output<float>("C"), K),
                           kId, "cublasSgemm");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const std::int64_t K = a.scalar<int>("K");
  const float* A = a.input<float>("A");
  const float* B = a.input<float>("B");
  double* C = a.output("C");
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < K; ++j) {
      double acc = 0.0;
      for (std::int64_t k = 0; k < N; ++k) acc += double(A[i * N + k]) * double(B[k * K + j]);
      C[i * K + j] = acc;
    }
}

}  // namespace

JUDGE_REFERENCE(matrix_multiplication, gpu, cpu)
