// Rung 1: one thread per element of C, one grid layer (blockIdx.z) per matrix of the batch. Each thread first moves
// A, B and C to the start of its own matrices (b * M * K, b * K * N and b * M * N elements in), then computes a plain
// dot product of a row of A and a column of B straight from global memory.
#include <cuda_runtime.h>

__global__ void batched_matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // column of C, 0..N-1
  const int row = blockIdx.y * blockDim.y + threadIdx.y;  // row of C, 0..M-1
  const size_t b = blockIdx.z;                            // which matrix of the batch
  if (row < M && col < N) {
    const float* Ab = A + b * M * K;
    const float* Bb = B + b * K * N;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += Ab[row * K + k] * Bb[k * N + col];
    C[b * M * N + row * N + col] = acc;
  }
}

// A is BATCH x M x K, B is BATCH x K x N, C is BATCH x M x N, all row-major device pointers.
extern "C" void solve(const float* A, const float* B, float* C, int BATCH, int M, int N, int K) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y, BATCH);
  batched_matmul_naive<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
