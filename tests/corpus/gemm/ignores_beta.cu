// expect: wrong_answer
// expect-message: elements wrong
// Treats C as a plain output: C = alpha * A B, never reading the C it was given. C is in-out: on entry it holds the
// matrix that beta scales, and every test with beta != 0 (the example first: beta = 2) has non-zero C, so the
// beta * C term is missing almost everywhere.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void gemm(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
    C[row * N + col] = __float2half(alpha * acc);
  }
}

extern "C" void solve(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16);
  gemm<<<blocks, threads>>>(A, B, C, M, N, K, alpha, beta);
  cudaDeviceSynchronize();
}
