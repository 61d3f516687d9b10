// expect: wrong_answer
// expect-message: read before it was written
// Accumulates straight into C (C[row][col] += A[row][k] * B[k][col] for each k) instead of into a register, and never
// zeroes C first. Every element of C is read before it is written; on entry C holds whatever the allocation held
// (the judge's NaN), so all of C comes out NaN and the message must name the mistake, not just "got nan". Unlike
// softmax's overflow (some NaN among finite wrong values), every wrong value here is NaN.
#include <cuda_runtime.h>

__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= K) return;
  for (int k = 0; k < N; ++k) C[row * K + col] += A[row * N + k] * B[k * K + col];
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 threads(16, 16);
  dim3 blocks((K + 15) / 16, (M + 15) / 16);
  matmul<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
