// Reference for challenges/bfs_shortest_path: result[0] = the number of 4-neighbour steps on the shortest path over
// free cells (grid value 0) of a rows x cols grid from (start_row, start_col) to (end_row, end_col); 0 when the two
// are the same cell, -1 when no path exists. As in LeetGPU's reference, the start cell is always entered and expanded
// (its own value is never looked at) and the end cell is reached only through its being free; both only matter past
// the statement's promise that start and end are free (the stress cases).
//
// gpu(): a level-synchronous BFS in one block of 1024 threads, one launch for the whole search. The visited set is a
// bitmap in shared memory (rows * cols <= 10^6 cells: 125 KB, inside an H100/H200 block's 227 KB; in global memory
// on a GPU that allows a block less), claimed with
// atomicOr so that every cell enters the frontier once; the two frontier queues live in global scratch (the block's
// own global writes are visible to it after __syncthreads). The search stops at the level that claims the end cell,
// or when a level adds nothing. A level costs two barriers, so even the 10^5-level serpentine benchmark takes a
// fraction of a second; a frontier never exceeds the number of cells.
//
// cpu(): the plain queue BFS of LeetGPU's reference.
//
// Also the generator "bfs_grid" (below), which draws the grids of the tests and benchmarks.
#include <cmath>
#include <cstdint>
#include <vector>

#include "judge/worker/generate.hpp"
#include "judge/worker/generators/fill.cuh"
#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"
#include "reference/scratch.cuh"

namespace {

constexpr const char* kId = "bfs_shortest_path";
constexpr int kThreads = 1024;

__global__ void __launch_bounds__(kThreads, 1)
    bfs_kernel(const int* __restrict__ grid, int* __restrict__ result, int rows, int cols, int start, int end,
               int* __restrict__ q0, int* __restrict__ q1, unsigned* visited_global) {
  // The visited bitmap: in shared memory where the GPU lets a block have enough (125 KB at 1000 x 1000: Hopper and
  // A100 do, most consumer cards allow 99 KB), else in global memory.
  extern __shared__ unsigned visited_shared[];
  unsigned* visited = visited_global ? visited_global : visited_shared;
  __shared__ int next_size;
  __shared__ int found;
  const int n = rows * cols;
  const int words = (n + 31) / 32;
  for (int w = threadIdx.x; w < words; w += kThreads) visited[w] = 0u;
  if (threadIdx.x == 0) {
    next_size = 0;
    found = 0;
    q0[0] = start;
  }
  __syncthreads();
  if (threadIdx.x == 0) visited[start >> 5] |= 1u << (start & 31);
  int* cur = q0;
  int* nxt = q1;
  int size = 1;
  for (int level = 1;; ++level) {
    __syncthreads();  // the bitmap, the counter and the queue of the previous level are complete
    for (int i = threadIdx.x; i < size; i += kThreads) {
      const int c = cur[i];
      const int r = c / cols, col = c - r * cols;
      int nb[4];
      nb[0] = r > 0 ? c - cols : -1;
      nb[1] = r + 1 < rows ? c + cols : -1;
      nb[2] = col > 0 ? c - 1 : -1;
      nb[3] = col + 1 < cols ? c + 1 : -1;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int v = nb[k];
        if (v < 0 || grid[v] != 0) continue;
        const unsigned bit = 1u << (v & 31);
        if (visited[v >> 5] & bit) continue;
        if (atomicOr(&visited[v >> 5], bit) & bit) continue;
        if (v == end) found = 1;
        nxt[atomicAdd(&next_size, 1)] = v;
      }
    }
    __syncthreads();
    const int got = found, added = next_size;
    __syncthreads();  // everyone has read the counter before it is reset
    if (got || added == 0) {
      if (threadIdx.x == 0) result[0] = got ? level : -1;
      return;
    }
    if (threadIdx.x == 0) next_size = 0;
    size = added;
    int* t = cur;
    cur = nxt;
    nxt = t;
  }
}

__global__ void write_zero(int* result) { result[0] = 0; }

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int rows = a.scalar<int>("rows"), cols = a.scalar<int>("cols");
  const int start = a.scalar<int>("start_row") * cols + a.scalar<int>("start_col");
  const int end = a.scalar<int>("end_row") * cols + a.scalar<int>("end_col");
  const int* grid = a.input<int>("grid");
  int* result = a.output<int>("result");
  if (start == end) {
    write_zero<<<1, 1, 0, s>>>(result);
    judge::ref::check_launch(kId, "write_zero");
    return;
  }
  const std::int64_t n = static_cast<std::int64_t>(rows) * cols;
  static judge::ref::Scratch queues(kId, "frontier queues");
  int* q = queues.get<int>(static_cast<std::size_t>(2 * n));
  const std::size_t bitmap = static_cast<std::size_t>((n + 31) / 32) * sizeof(unsigned);
  int device = 0, optin = 0;
  judge::ref::check_cuda(cudaGetDevice(&device), kId, "cudaGetDevice");
  judge::ref::check_cuda(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), kId,
                         "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
  // Room for the kernel's own two counters besides the bitmap.
  const bool in_shared = bitmap + 64 <= static_cast<std::size_t>(optin);
  static judge::ref::Scratch global_bitmap(kId, "visited bitmap");
  unsigned* visited_global = in_shared ? nullptr : global_bitmap.get<unsigned>(bitmap / sizeof(unsigned));
  const std::size_t smem = in_shared ? bitmap : 0;
  judge::ref::check_cuda(
      cudaFuncSetAttribute(bfs_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)), kId,
      "cudaFuncSetAttribute(bfs_kernel)");
  bfs_kernel<<<1, kThreads, smem, s>>>(grid, result, rows, cols, static_cast<int>(start), static_cast<int>(end), q,
                                       q + n, visited_global);
  judge::ref::check_launch(kId, "bfs_kernel");
}

void cpu(judge::HostArgs& a) {
  const int rows = a.scalar<int>("rows"), cols = a.scalar<int>("cols");
  const int sr = a.scalar<int>("start_row"), sc = a.scalar<int>("start_col");
  const int er = a.scalar<int>("end_row"), ec = a.scalar<int>("end_col");
  const int* grid = a.input<int>("grid");
  double* out = a.output("result");
  if (sr == er && sc == ec) {
    out[0] = 0;
    return;
  }
  const std::int64_t n = static_cast<std::int64_t>(rows) * cols;
  std::vector<int> dist(static_cast<std::size_t>(n), -1);
  std::vector<std::int64_t> queue;
  queue.reserve(static_cast<std::size_t>(n));
  const std::int64_t start = static_cast<std::int64_t>(sr) * cols + sc;
  const std::int64_t end = static_cast<std::int64_t>(er) * cols + ec;
  dist[start] = 0;
  queue.push_back(start);
  const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::int64_t c = queue[head];
    if (c == end) {
      out[0] = dist[c];
      return;
    }
    const int r = static_cast<int>(c / cols), col = static_cast<int>(c % cols);
    for (int k = 0; k < 4; ++k) {
      const int nr = r + dr[k], nc = col + dc[k];
      if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
      const std::int64_t v = static_cast<std::int64_t>(nr) * cols + nc;
      if (dist[v] >= 0 || grid[v] != 0) continue;
      dist[v] = dist[c] + 1;
      queue.push_back(v);
    }
  }
  out[0] = -1;
}

// "bfs_grid": a rows x cols grid of 0 (free) and 1 (obstacle), row-major, rows = count / cols. Arguments:
//   cols       (required) the row length;
//   density    (required) the probability that a cell is an obstacle, independently per cell;
//   clear_cols the first clear_cols cells of every row are free (LeetGPU's performance grid: a free strip down the
//              left edge, so that the search has somewhere to go);
//   snake      1: a serpentine corridor instead: every odd row is a wall but for one gap, at its last cell in rows
//              1, 5, 9, ... and at its first in rows 3, 7, 11, ...; the even rows are free (density then applies to
//              nothing). From (0, 0) the end of the corridor lies about rows * cols / 2 steps away;
//   wall_col   a column that is all obstacles (splits the grid in two);
//   free_a, free_b  flat indices (row * cols + col) of cells made free last, whatever the rest says: the start and
//              end cells, which the statement promises are free;
//   halo       the cells within halo rows and columns of free_a and free_b are free too (default 0): on a random
//              grid a start or end walled in by its few neighbours would make the answer -1 by accident.
// low and high are not used. Random cells draw from judge::gen::unit, so the grid depends on the seed only there.
struct BfsGrid {
  std::int64_t cols, clear_cols, wall_col, free_a, free_b, halo;
  double density;
  bool snake;
  std::uint64_t key;
  JUDGE_HD bool near(std::int64_t f, std::int64_t r, std::int64_t c) const {
    if (f < 0) return false;
    const std::int64_t dr = f / cols - r, dc = f % cols - c;
    return dr <= halo && -dr <= halo && dc <= halo && -dc <= halo;
  }
  JUDGE_HD double operator()(std::int64_t i) const {
    const std::int64_t r = i / cols, c = i % cols;
    if (near(free_a, r, c) || near(free_b, r, c)) return 0.0;
    if (c == wall_col) return 1.0;
    if (snake) {
      if (r % 2 == 0) return 0.0;
      const std::int64_t gap = r % 4 == 1 ? cols - 1 : 0;
      return c == gap ? 0.0 : 1.0;
    }
    if (c < clear_cols) return 0.0;
    return judge::gen::unit(key, static_cast<std::uint64_t>(i)) < density ? 1.0 : 0.0;
  }
};

void bfs_grid(const judge::GeneratorCall& c) {
  if (!judge::is_integer(c.dtype))
    JUDGE_THROW(judge::Error, "generator 'bfs_grid' makes 0/1 cells; the buffer is {} (use int32)",
                judge::to_string(c.dtype));
  const double cols = c.arg("cols"), density = c.arg("density");
  if (!(cols >= 1) || cols != std::floor(cols) || std::fmod(static_cast<double>(c.count), cols) != 0)
    JUDGE_THROW(judge::Error, "generator 'bfs_grid': cols = {} does not divide the buffer's {} cells", cols, c.count);
  if (!(density >= 0 && density <= 1))
    JUDGE_THROW(judge::Error, "generator 'bfs_grid': density = {} is outside [0, 1]", density);
  auto opt = [&](const char* name, double fallback) { return c.args.count(name) > 0 ? c.arg(name) : fallback; };
  const double snake = opt("snake", 0);
  if (snake != 0 && snake != 1) JUDGE_THROW(judge::Error, "generator 'bfs_grid': snake = {} is not 0 or 1", snake);
  judge::gen::fill(c, BfsGrid{static_cast<std::int64_t>(cols), static_cast<std::int64_t>(opt("clear_cols", 0)),
                              static_cast<std::int64_t>(opt("wall_col", -1)),
                              static_cast<std::int64_t>(opt("free_a", -1)),
                              static_cast<std::int64_t>(opt("free_b", -1)),
                              static_cast<std::int64_t>(opt("halo", 0)), density, snake == 1, c.key});
}

}  // namespace

JUDGE_REFERENCE(bfs_shortest_path, gpu, cpu)
JUDGE_GENERATOR(bfs_grid, bfs_grid)
