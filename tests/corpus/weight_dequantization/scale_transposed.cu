// expect: wrong_answer
// expect-message: elements wrong
// Reads S column-major, S[(j / TILE_SIZE) * s_rows + i / TILE_SIZE], where it is row-major with ceil(N / TILE_SIZE)
// scales a row. The index stays inside S, so nothing faults, and it is right while S is a single row or a single
// column of tiles (then both layouts agree); the example (tile (0, 1) gets S[1][0] = -0.25 instead of S[0][1] = 2) and
// every case with tiles in both directions catch it.
#include <cuda_runtime.h>

__global__ void dequantize(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  const int s_rows = (M + TILE_SIZE - 1) / TILE_SIZE;
  Y[i * N + j] = X[i * N + j] * S[(j / TILE_SIZE) * s_rows + i / TILE_SIZE];  // should be (i/T) * s_cols + j/T
}

extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + 15) / 16, (M + 15) / 16);
  dequantize<<<blocks, threads>>>(X, S, Y, M, N, TILE_SIZE);
  cudaDeviceSynchronize();
}
