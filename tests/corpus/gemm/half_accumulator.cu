// expect: wrong_answer
// expect-message: elements wrong
// Sums the products in a half accumulator (__hfma): half keeps 11 significant bits, so once the running sum reaches
// 32 its rounding step is 1/32 and the errors of 4095 additions add up (test long_k_17x19x4095: 3% of the elements
// wrong, by up to 7.5x the tolerance on an H200); on overflow_48x48x64 the sums pass half's largest value, 65,504,
// and become inf before alpha scales them back into range. The challenge asks for float accumulation, as the
// reference does.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void gemm(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    half acc = __float2half(0.0f);
    for (int k = 0; k < K; ++k) acc = __hfma(A[row * K + k], B[k * N + col], acc);
    const int i = row * N + col;
    C[i] = __float2half(alpha * __half2float(acc) + beta * __half2float(C[i]));
  }
}

extern "C" void solve(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16);
  gemm<<<blocks, threads>>>(A, B, C, M, N, K, alpha, beta);
  cudaDeviceSynchronize();
}
