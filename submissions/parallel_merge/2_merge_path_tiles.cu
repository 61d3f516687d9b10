// Rung 2: merge path. Rung 1 ran 25-step binary searches for every element, scattered over memory; here each block
// produces one tile of 3840 consecutive outputs. Two threads find where the tile starts and ends in A and B (the
// co-rank: the first d outputs are A[0, i) and B[0, d - i)), the block loads those slices into shared memory with
// coalesced reads, every thread merges 15 outputs sequentially, and the tile is written back coalesced.
#include <cuda_runtime.h>

#define THREADS 256
#define ITEMS 15                 // odd, so staging thread t's outputs at t * ITEMS + k hits 32 different banks
#define TILE (THREADS * ITEMS)

// The co-rank of diagonal d: how many of the first d outputs of merge(x[0, m), y[0, n)) come from x. It is the number
// of i in [max(0, d - n), min(d, m)) with x[i] <= y[d - 1 - i] (true, then false, along that range); `<=` puts x's
// copy of a value first. Works on global and shared memory alike.
__device__ int co_rank(const float* x, int m, const float* y, int n, int d) {
  int lo = max(0, d - n), hi = min(d, m);
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (x[mid] <= y[d - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__global__ void merge_tiles(const float* A, const float* B, float* C, int M, int N) {
  __shared__ float tile[TILE];
  __shared__ int a_split[2];
  const int total = M + N;
  const int d0 = blockIdx.x * TILE, d1 = min(d0 + TILE, total);
  if (threadIdx.x < 2) a_split[threadIdx.x] = co_rank(A, M, B, N, threadIdx.x == 0 ? d0 : d1);
  __syncthreads();
  const int a0 = a_split[0], b0 = d0 - a0;
  const int count = d1 - d0, na = a_split[1] - a0, nb = count - na;

  // The tile's inputs: tile[0, na) = A[a0, a0 + na), tile[na, count) = B[b0, b0 + nb).
  for (int i = threadIdx.x; i < count; i += THREADS) tile[i] = i < na ? A[a0 + i] : B[b0 + i - na];
  __syncthreads();

  // This thread's outputs [diag, diag + ITEMS) of the tile, merged with the same tie rule as co_rank.
  const int diag = min(threadIdx.x * ITEMS, count);
  int ai = co_rank(tile, na, tile + na, nb, diag);
  int bi = diag - ai;
  float out[ITEMS];
  for (int k = 0; k < ITEMS; ++k) {
    if (diag + k < count) {
      const bool take_a = bi >= nb || (ai < na && tile[ai] <= tile[na + bi]);
      out[k] = take_a ? tile[ai++] : tile[na + bi++];
    }
  }
  __syncthreads();  // every thread is done reading the inputs

  for (int k = 0; k < ITEMS; ++k)
    if (diag + k < count) tile[diag + k] = out[k];
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += THREADS) C[d0 + i] = tile[i];
}

// A, B, C are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* A, const float* B, float* C, int M, int N) {
  const int tiles = (M + N + TILE - 1) / TILE;
  merge_tiles<<<tiles, THREADS>>>(A, B, C, M, N);
  cudaDeviceSynchronize();
}
