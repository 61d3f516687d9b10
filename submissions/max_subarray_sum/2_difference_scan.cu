// Rung 2: each element read once. Window sums change by d[i] = input[i + w] - input[i] from start i to i + 1, so
// max_i S(i) = S(0) + max(0, best prefix sum of d[0 .. N-w-1]). Block k reduces positions [256k, 256k + 256) to
// (sum of d, best prefix of d, its part of S(0)), joined in order with warp shuffles; a second kernel of one block
// joins the blocks' triples in order. Rung 1 read window_size elements per window; this reads each about twice.
#include <climits>

#include <cuda_runtime.h>

#define THREADS 256
#define MAX_BLOCKS 1024  // N <= 50,000 needs at most 196

const int NONE = INT_MIN / 2;  // best prefix of an empty run: below any real sum, and NONE + a sum cannot overflow

struct Run {
  int sum;    // sum of the run's differences
  int best;   // largest sum of a non-empty prefix of them (NONE when there are none)
  int first;  // sum of the run's elements that lie in window 0
};

// a followed by b. Associative but not commutative: a must come before b.
__device__ Run join(Run a, Run b) { return {a.sum + b.sum, max(a.best, a.sum + b.best), a.first + b.first}; }

__device__ Run shfl_down(Run r, int offset) {
  return {__shfl_down_sync(0xffffffff, r.sum, offset), __shfl_down_sync(0xffffffff, r.best, offset),
          __shfl_down_sync(0xffffffff, r.first, offset)};
}

// Joins the runs of the block's threads in thread order; the result is valid in thread 0.
__device__ Run block_join(Run v) {
  __shared__ Run warp_runs[THREADS / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // Growing offsets keep the order: after offset o, lane l holds lanes l .. l + 2o - 1.
  for (int o = 1; o < 32; o *= 2) {
    Run next = shfl_down(v, o);
    if (lane + o < 32) v = join(v, next);
  }
  if (lane == 0) warp_runs[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < THREADS / 32; ++w) v = join(v, warp_runs[w]);
  return v;
}

__device__ Run block_runs[MAX_BLOCKS];

__global__ void reduce_blocks(const int* input, int N, int window_size) {
  const int diffs = N - window_size;  // d[0 .. diffs - 1]
  const int j = blockIdx.x * THREADS + threadIdx.x;
  Run v = {0, NONE, 0};
  if (j < diffs || j < window_size) {
    const int x = input[j];
    if (j < window_size) v.first = x;
    if (j < diffs) v.sum = v.best = input[j + window_size] - x;
  }
  v = block_join(v);
  if (threadIdx.x == 0) block_runs[blockIdx.x] = v;
}

__global__ void reduce_final(int* output, int blocks) {
  // Thread t joins a contiguous group of block runs, then the block joins the groups in order.
  const int per = (blocks + THREADS - 1) / THREADS;
  Run v = {0, NONE, 0};
  for (int k = threadIdx.x * per; k < (threadIdx.x + 1) * per && k < blocks; ++k) v = join(v, block_runs[k]);
  v = block_join(v);
  if (threadIdx.x == 0) output[0] = v.first + max(0, v.best);  // the 0 is window 0 itself
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const int* input, int* output, int N, int window_size) {
  // One thread per position of the longer sequence: the N - window_size differences or the window_size elements.
  const int positions = max(N - window_size, window_size);
  const int blocks = (positions + THREADS - 1) / THREADS;
  reduce_blocks<<<blocks, THREADS>>>(input, N, window_size);
  reduce_final<<<1, THREADS>>>(output, blocks);
  cudaDeviceSynchronize();
}
