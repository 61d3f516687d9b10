// expect: wrong_answer
// Rung 1 with 8 neighbours instead of 4: a diagonal counts as one step. example_4x4 comes out 4 instead of 6
// ((0,0) (0,1) (1,2) (2,3) (3,3) would do), and end_walled_in_5x5 gives 2 through the diagonal (1,1) instead of -1.
#include <cuda_runtime.h>

__global__ void init_dist(int* dist, int n, int start) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dist[i] = i == start ? 0 : -1;
}

// flags[0]: a cell got a distance at this level; flags[1]: the end cell got one.
__global__ void expand_level(const int* grid, int* dist, int rows, int cols, int level, int end, int* flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols || dist[i] != level) return;
  int r = i / cols, c = i % cols;
  for (int k = 0; k < 9; ++k) {  // all 8 neighbours, diagonals included
    int nr = r + k / 3 - 1, nc = c + k % 3 - 1;
    if (k == 4 || nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
    int v = nr * cols + nc;
    if (v < 0 || grid[v] != 0 || dist[v] != -1) continue;
    dist[v] = level + 1;
    flags[0] = 1;
    if (v == end) flags[1] = 1;
  }
}

__global__ void write_result(const int* dist, int end, int* result) { result[0] = dist[end]; }

// grid, result are device pointers
extern "C" void solve(const int* grid, int* result, int rows, int cols, int start_row, int start_col, int end_row,
                      int end_col) {
  int n = rows * cols, start = start_row * cols + start_col, end = end_row * cols + end_col;
  int *dist, *flags;
  cudaMalloc(&dist, sizeof(int) * n);
  cudaMalloc(&flags, sizeof(int) * 2);
  int threads = 256, blocks = (n + threads - 1) / threads;
  init_dist<<<blocks, threads>>>(dist, n, start);
  for (int level = 0; start != end; ++level) {
    cudaMemset(flags, 0, sizeof(int) * 2);
    expand_level<<<blocks, threads>>>(grid, dist, rows, cols, level, end, flags);
    int h[2];
    cudaMemcpy(h, flags, sizeof(h), cudaMemcpyDeviceToHost);
    if (!h[0] || h[1]) break;
  }
  write_result<<<1, 1>>>(dist, end, result);  // dist[start] = 0 covers start = end
  cudaDeviceSynchronize();
  cudaFree(dist);
  cudaFree(flags);
}
