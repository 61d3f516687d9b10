// Rung 1: one thread per element on a 2D grid of 16 x 16 blocks, x along the columns (so neighbouring threads touch
// neighbouring addresses) and y along the rows. Element (i, j) takes the scale of its tile (i / TILE_SIZE,
// j / TILE_SIZE); a row of S holds ceil(N / TILE_SIZE) scales, the last tile of a row being partial when TILE_SIZE
// does not divide N.
#include <cuda_runtime.h>

__global__ void dequantize_naive(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  const int s_cols = (N + TILE_SIZE - 1) / TILE_SIZE;  // rounded up, not N / TILE_SIZE
  Y[i * N + j] = X[i * N + j] * S[(i / TILE_SIZE) * s_cols + j / TILE_SIZE];
}

extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);  // rounded up both ways
  dequantize_naive<<<blocks, threads>>>(X, S, Y, M, N, TILE_SIZE);
  cudaDeviceSynchronize();
}
