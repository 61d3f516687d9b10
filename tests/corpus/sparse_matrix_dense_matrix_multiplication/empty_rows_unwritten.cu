// expect: wrong_answer
// expect-message: never written
// judge-args: --case mostly_empty_rows_100x50x16
// Writes a row of C only when its row of A holds a non-zero, as if an empty row had "no result". Its result is a row
// of zeros and must be written: C is not cleared before the call (the judge fills it with a NaN pattern). On
// mostly_empty_rows_100x50x16 most rows are empty; on zero_matrix_7x9x5 nothing at all is written, which is the
// output_not_written verdict.
#include <cuda_runtime.h>
__global__ void spmm(const float* A, const float* B, float* C, int M, int N, int K) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= K) return;
  float acc = 0.0f;
  bool any = false;
  for (int n = 0; n < N; ++n) {
    const float a = A[(size_t)i * N + n];
    if (a != 0.0f) acc += a * B[(size_t)n * K + j], any = true;
  }
  if (any) C[(size_t)i * K + j] = acc;
}
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K, int nnz) {
  const dim3 block(32, 8);
  spmm<<<dim3((K + 31) / 32, (M + 7) / 8), block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
