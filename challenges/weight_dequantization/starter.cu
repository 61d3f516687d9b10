#include <cuda_runtime.h>

// Y[i][j] = X[i][j] * S[i / TILE_SIZE][j / TILE_SIZE]. X and Y are M x N, row-major: element (i, j) is at
// i * N + j. S holds one scale per TILE_SIZE x TILE_SIZE tile, ceil(M / TILE_SIZE) rows of ceil(N / TILE_SIZE) each,
// row-major: the scale of tile (r, c) is at r * ceil(N / TILE_SIZE) + c.
__global__ void dequantize_kernel(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  // TODO
}

// X, S, Y are device pointers. solve() must leave the finished result in Y.
extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  dequantize_kernel<<<blocks, threads>>>(X, S, Y, M, N, TILE_SIZE);
  cudaDeviceSynchronize();
}
