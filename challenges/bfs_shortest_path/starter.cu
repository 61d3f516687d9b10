#include <cuda_runtime.h>

// One BFS level: every cell whose distance is `level` offers level + 1 to its free neighbours (up, down, left, right)
// that have no distance yet (-1), and sets *changed when it gives one out. Run it for level = 0, 1, 2, ... until the
// end cell has a distance or a level changes nothing (then the end cannot be reached).
__global__ void expand_level(const int* grid, int* dist, int rows, int cols, int level, int* changed) {
  // TODO
}

// grid and result point to GPU memory. solve() must leave the number of steps (0 when start = end, -1 when the end
// cannot be reached) in result[0].
extern "C" void solve(const int* grid, int* result, int rows, int cols, int start_row, int start_col, int end_row,
                      int end_col) {
  // TODO: allocate dist (rows * cols ints), set it to -1 everywhere but the start (0), call expand_level level by
  // level, and copy dist[end_row * cols + end_col] into result[0].
  cudaDeviceSynchronize();
}
