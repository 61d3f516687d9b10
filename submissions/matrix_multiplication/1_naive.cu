// Rung 1: one thread per element of C, reading its row of A and column of B straight from global memory.
// threadIdx.x runs along a row of C, so the 32 threads of a warp read 32 consecutive elements of B (one coalesced
// load) and the same element of A (a broadcast). But each element of A is fetched by K threads and each element of
// B by M threads, through the caches at best: the kernel is starved for memory bandwidth. Rung 2 fixes that.
#include <cuda_runtime.h>

__global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // column of C, 0..K-1
  const int row = blockIdx.y * blockDim.y + threadIdx.y;  // row of C, 0..M-1
  if (row < M && col < K) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * K + col];
    C[row * K + col] = acc;
  }
}

// A is M x N, B is N x K, C is M x K, all row-major device pointers.
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 threads(16, 16);
  const dim3 blocks((K + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  matmul_naive<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
