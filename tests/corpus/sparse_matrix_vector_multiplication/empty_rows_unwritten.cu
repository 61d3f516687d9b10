// expect: wrong_answer
// expect-message: never written
// judge-args: --case mostly_empty_rows_100x50
// Writes y[i] only for rows that hold a non-zero, as if an empty row had "no result". Its result is 0 and must be
// written: y is not cleared before the call (the judge fills it with a NaN pattern). On mostly_empty_rows_100x50
// most rows are empty; on zero_matrix_7x9 nothing at all is written, which is the output_not_written verdict.
#include <cuda_runtime.h>
__global__ void spmv(const float* A, const float* x, float* y, int M, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  float acc = 0.0f;
  bool any = false;
  for (int j = 0; j < N; ++j) {
    const float a = A[(size_t)i * N + j];
    if (a != 0.0f) acc += a * x[j], any = true;
  }
  if (any) y[i] = acc;
}
extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  spmv<<<(M + 255) / 256, 256>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
}
