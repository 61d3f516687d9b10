// Rung 1: one kernel launch per BFS level over the whole grid, a thread per cell. dist starts at -1 everywhere but the
// start (0); at level L every cell with dist L gives L + 1 to its free neighbours that still have -1 (two cells may
// write the same L + 1 to one neighbour: a harmless race). After each level the host copies back two flags, "some
// cell changed" and "the end was reached", and stops on either. Every level reads the whole grid and pays a launch
// and a round trip to the host: fine for a few thousand levels, slow for a long corridor.
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
  int nb[4] = {r > 0 ? i - cols : -1, r + 1 < rows ? i + cols : -1, c > 0 ? i - 1 : -1, c + 1 < cols ? i + 1 : -1};
  for (int k = 0; k < 4; ++k) {
    int v = nb[k];
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
