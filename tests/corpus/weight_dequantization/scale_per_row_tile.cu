// expect: wrong_answer
// expect-message: elements wrong
// Treats the scales as one per band of TILE_SIZE rows, S[i / TILE_SIZE], as if the quantisation were per row group
// only; the tiles are 2D, so element (i, j) needs S[i / TILE_SIZE][j / TILE_SIZE]. Right only while N <= TILE_SIZE
// (one tile column, then the two indices agree); row_1x8192_t128 (one row of 64 tiles, all given S[0]) and the
// example catch it.
#include <cuda_runtime.h>

__global__ void dequantize(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  Y[i * N + j] = X[i * N + j] * S[i / TILE_SIZE];  // the column tile is missing
}

extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + 15) / 16, (M + 15) / 16);
  dequantize<<<blocks, threads>>>(X, S, Y, M, N, TILE_SIZE);
  cudaDeviceSynchronize();
}
