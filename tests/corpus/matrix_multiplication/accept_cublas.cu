// expect: accepted
// judge-command: submit
// cublasSgemm with the row-major trick: a row-major matrix read as column-major is its transpose, so C = A B
// (row-major) is C^T = B^T A^T (column-major), i.e. Sgemm(m = K, n = M, k = N) with B first. The handle is created
// on the first call and cached in a static; default math mode (no TF32), so the result is FP32 and within the
// tolerance. Calling a vendor library is allowed and must be accepted and timed.
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    return h;
  }();
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K);
  cudaDeviceSynchronize();
}
