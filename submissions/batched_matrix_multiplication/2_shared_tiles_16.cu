// Rung 2: 16x16 tiles of A[b] and B[b] are staged in shared memory and reused by the whole block.
// In rung 1 each element of A and B was read from global memory by 16 threads of a block; now it is read once per
// block and then 16 times from shared memory. Tiles that stick out of a matrix are filled with zeros (never with the
// next matrix of the batch, which lies right after it in memory), so sizes need not be multiples of 16.
#include <cuda_runtime.h>

#define TILE 16

__global__ void batched_matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;  // row of C[b] (and of A[b])
  const int col = blockIdx.x * TILE + tx;  // column of C[b] (and of B[b])
  const size_t b = blockIdx.z;
  A += b * M * K;  // this block's matrices
  B += b * K * N;
  C += b * M * N;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    // Every thread loads one element of each tile, also threads whose own C element is out of range: the tile is
    // shared, and every thread must reach the barriers below.
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();  // the tiles are complete
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // everyone is done with the tiles before the next iteration overwrites them
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

extern "C" void solve(const float* A, const float* B, float* C, int BATCH, int M, int N, int K) {
  const dim3 threads(TILE, TILE);
  const dim3 blocks((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, BATCH);
  batched_matmul_tiled<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
