// expect: wrong_answer
// A single-block BFS that looks for the end only among the cells it newly claims, with no special case for
// start = end: the start is claimed before the search begins, so it is never "found", and same_cell_2x2,
// single_cell_1x1 and same_cell_1000x1000 come out -1 instead of 0 once the reachable cells are exhausted.
#include <cuda_runtime.h>

constexpr int kThreads = 1024;

__global__ void bfs(const int* grid, int* result, int rows, int cols, int start, int end, int* visited, int* qa,
                    int* qb, int* counter) {
  __shared__ int found;
  if (threadIdx.x == 0) {
    found = 0;
    *counter = 0;
    visited[start] = 1;
    qa[0] = start;
  }
  int* cur = qa;
  int* nxt = qb;
  int size = 1;
  for (int level = 1;; ++level) {
    __syncthreads();
    for (int i = threadIdx.x; i < size; i += kThreads) {
      int c = cur[i], r = c / cols, col = c % cols;
      int nb[4] = {r > 0 ? c - cols : -1, r + 1 < rows ? c + cols : -1, col > 0 ? c - 1 : -1,
                   col + 1 < cols ? c + 1 : -1};
      for (int k = 0; k < 4; ++k) {
        int v = nb[k];
        if (v < 0 || grid[v] != 0 || atomicCAS(&visited[v], 0, 1) != 0) continue;
        nxt[atomicAdd(counter, 1)] = v;
        if (v == end) found = 1;
      }
    }
    __syncthreads();
    int got = found, added = *(volatile int*)counter;
    __syncthreads();
    if (got || added == 0) {
      if (threadIdx.x == 0) result[0] = got ? level : -1;
      return;
    }
    if (threadIdx.x == 0) *counter = 0;
    size = added;
    int* t = cur;
    cur = nxt;
    nxt = t;
  }
}

extern "C" void solve(const int* grid, int* result, int rows, int cols, int start_row, int start_col, int end_row,
                      int end_col) {
  int n = rows * cols;
  int* buf;
  cudaMalloc(&buf, sizeof(int) * (3 * (size_t)n + 1));
  cudaMemset(buf, 0, sizeof(int) * n);
  bfs<<<1, kThreads>>>(grid, result, rows, cols, start_row * cols + start_col, end_row * cols + end_col, buf,
                       buf + n, buf + 2 * (size_t)n, buf + 3 * (size_t)n);
  cudaDeviceSynchronize();
  cudaFree(buf);
}
