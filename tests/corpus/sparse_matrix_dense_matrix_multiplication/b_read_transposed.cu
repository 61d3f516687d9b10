// expect: wrong_answer
// expect-message: elements wrong
// Reads B as if it were stored column-major (element (n, j) at B[j * N + n]), a slip from C = A B^T habits. Every
// index stays inside B, so nothing crashes, and where N = K with a symmetric B it would even pass; the statement's
// example (N = 4, K = 2) already gives C[0] = [2 * 1 + 1 * 4, 2 * 5 + 1 * 8] = [6, 18] instead of [9, 12].
#include <cuda_runtime.h>
__global__ void spmm(const float* A, const float* B, float* C, int M, int N, int K) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= K) return;
  float acc = 0.0f;
  for (int n = 0; n < N; ++n) {
    const float a = A[(size_t)i * N + n];
    if (a != 0.0f) acc += a * B[(size_t)j * N + n];  // wrong: B is N x K row-major, element (n, j) is B[n * K + j]
  }
  C[(size_t)i * K + j] = acc;
}
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K, int nnz) {
  const dim3 block(32, 8);
  spmm<<<dim3((K + 31) / 32, (M + 7) / 8), block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
