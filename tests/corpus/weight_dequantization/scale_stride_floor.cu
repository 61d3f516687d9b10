// expect: wrong_answer
// expect-message: elements wrong
// Indexes S with a row stride of N / TILE_SIZE, rounded down, where a row of S holds ceil(N / TILE_SIZE) scales (the
// last tile of each row is partial when TILE_SIZE does not divide N). Right whenever TILE_SIZE divides N, as in
// LeetGPU's performance test (8192 / 128), or when S has a single row; every tile row past the first then reads its
// scales shifted. example_18x20_t16 (stride 1 instead of 2) and stride_40x50_t16 (3 instead of 4) catch it.
#include <cuda_runtime.h>

__global__ void dequantize(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  const int s_cols = N / TILE_SIZE;  // should be (N + TILE_SIZE - 1) / TILE_SIZE
  Y[i * N + j] = X[i * N + j] * S[(i / TILE_SIZE) * s_cols + j / TILE_SIZE];
}

extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + 15) / 16, (M + 15) / 16);
  dequantize<<<blocks, threads>>>(X, S, Y, M, N, TILE_SIZE);
  cudaDeviceSynchronize();
}
