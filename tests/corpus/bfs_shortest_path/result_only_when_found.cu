// expect: wrong_answer
// expect-message: got 0, expected -1
// Rung 2 that writes result[0] only when the end is reached, as if the output arrived holding -1. It arrives holding
// 0 (LeetGPU hands it over so, and so does the judge): example_walled_3x3, the first unreachable case, reads 0 where
// -1 is expected.
#include <cuda_runtime.h>

constexpr int kThreads = 1024;

__global__ void __launch_bounds__(kThreads) bfs(const int* grid, int* result, int rows, int cols, int start,
                                                int end, int* visited, int* qa, int* qb, int* counter) {
  __shared__ int found;
  if (threadIdx.x == 0) {
    found = 0;
    *counter = 0;
    visited[start] = 1;
    qa[0] = start;
    if (start == end) result[0] = 0;
  }
  if (start == end) return;
  int* cur = qa;
  int* nxt = qb;
  int size = 1;
  const unsigned lane = threadIdx.x & 31;
  for (int level = 1;; ++level) {
    __syncthreads();
    // Every lane of a warp runs the same number of rounds, so the ballots below see the whole warp.
    for (int base = threadIdx.x - lane; base < size; base += kThreads) {
      int i = base + lane;
      int c = i < size ? cur[i] : -1;
      int r = c >= 0 ? c / cols : 0, col = c >= 0 ? c - r * cols : 0;
      int nb[4] = {c >= 0 && r > 0 ? c - cols : -1, c >= 0 && r + 1 < rows ? c + cols : -1,
                   c >= 0 && col > 0 ? c - 1 : -1, c >= 0 && col + 1 < cols ? c + 1 : -1};
      for (int k = 0; k < 4; ++k) {
        int v = nb[k];
        bool mine = v >= 0 && grid[v] == 0 && atomicCAS(&visited[v], 0, 1) == 0;
        unsigned ballot = __ballot_sync(0xffffffffu, mine);
        if (ballot == 0) continue;
        int leader = __ffs(ballot) - 1, slot = 0;
        if ((int)lane == leader) slot = atomicAdd(counter, __popc(ballot));
        slot = __shfl_sync(0xffffffffu, slot, leader);
        if (mine) {
          nxt[slot + __popc(ballot & ((1u << lane) - 1))] = v;
          if (v == end) found = 1;
        }
      }
    }
    __syncthreads();
    int got = found, added = *(volatile int*)counter;
    __syncthreads();
    if (got || added == 0) {
      if (threadIdx.x == 0 && got) result[0] = level;  // "result is already -1": it is not
      return;
    }
    if (threadIdx.x == 0) *counter = 0;
    size = added;
    int* t = cur;
    cur = nxt;
    nxt = t;
  }
}

// grid, result are device pointers
extern "C" void solve(const int* grid, int* result, int rows, int cols, int start_row, int start_col, int end_row,
                      int end_col) {
  static int* buf = nullptr;
  static int capacity = 0;
  int n = rows * cols;
  if (n > capacity) {
    if (buf) cudaFree(buf);
    cudaMalloc(&buf, sizeof(int) * (3 * (size_t)n + 1));
    capacity = n;
  }
  int *visited = buf, *qa = buf + n, *qb = buf + 2 * (size_t)n, *counter = buf + 3 * (size_t)n;
  cudaMemsetAsync(visited, 0, sizeof(int) * n);
  bfs<<<1, kThreads>>>(grid, result, rows, cols, start_row * cols + start_col, end_row * cols + end_col, visited, qa,
                       qb, counter);
  cudaDeviceSynchronize();
}
