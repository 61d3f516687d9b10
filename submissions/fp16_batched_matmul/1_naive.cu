// Rung 1: one thread per element of C, blockIdx.z picking the matrix of the batch. Each thread reads its row of A[b]
// and column of B[b] straight from global memory, sums the products in float (half has 11 significant bits: a half
// accumulator would drift, and overflow past 65,504), and rounds to half once, when it writes C.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void bmm_naive(const half* A, const half* B, half* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // column of C[b], 0..N-1
  const int row = blockIdx.y * blockDim.y + threadIdx.y;  // row of C[b], 0..M-1
  const size_t b = blockIdx.z;                            // matrix of the batch
  if (row < M && col < N) {
    // Each operand has its own batch stride: M*K for A, K*N for B, M*N for C.
    const half* Ab = A + b * M * K;
    const half* Bb = B + b * K * N;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += __half2float(Ab[row * K + k]) * __half2float(Bb[k * N + col]);
    C[b * M * N + row * N + col] = __float2half(acc);
  }
}

// A is BATCH x M x K, B is BATCH x K x N, C is BATCH x M x N, all row-major device pointers.
extern "C" void solve(const half* A, const half* B, half* C, int BATCH, int M, int N, int K) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y, BATCH);
  bmm_naive<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
