// Rung 2: the same bitonic network, but every stage whose pairs lie within a 2048-element tile runs in shared memory.
// One kernel sorts each tile through all stages k <= 2048; for each larger k, the stages with j >= 2048 still go
// through global memory one launch each, and then one kernel finishes stages j = 1024 .. 1 inside each tile. For
// N = 1,000,000 (padded to 2^20) that is 55 passes over the data instead of rung 1's 210.
#include <cuda_runtime.h>

#include <math.h>

#define TILE 2048
#define TILE_THREADS (TILE / 2)  // one pair per thread per stage
#define THREADS 256

__global__ void pad_copy(const float* data, float* buf, int n, int p) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < p) buf[i] = i < n ? data[i] : INFINITY;  // +inf sorts to the end
}

// The pair (i, i + j) of thread t; ascending where bit k of the global index is clear.
__device__ void compare_exchange(float* s, int base, int t, int j, int k) {
  const int i = 2 * j * (t / j) + t % j;
  const float a = s[i], b = s[i + j];
  const bool ascending = ((base + i) & k) == 0;
  if ((a > b) == ascending) {
    s[i] = b;
    s[i + j] = a;
  }
}

// Stages (k, j) for all k <= TILE, inside each tile.
__global__ void sort_tiles(float* buf) {
  __shared__ float s[TILE];
  const int base = blockIdx.x * TILE;
  s[threadIdx.x] = buf[base + threadIdx.x];
  s[threadIdx.x + TILE_THREADS] = buf[base + threadIdx.x + TILE_THREADS];
  __syncthreads();
  for (int k = 2; k <= TILE; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) {
      compare_exchange(s, base, threadIdx.x, j, k);
      __syncthreads();
    }
  buf[base + threadIdx.x] = s[threadIdx.x];
  buf[base + threadIdx.x + TILE_THREADS] = s[threadIdx.x + TILE_THREADS];
}

// Stages (k, j) for j = TILE/2 .. 1 of one k > TILE, inside each tile.
__global__ void merge_tiles(float* buf, int k) {
  __shared__ float s[TILE];
  const int base = blockIdx.x * TILE;
  s[threadIdx.x] = buf[base + threadIdx.x];
  s[threadIdx.x + TILE_THREADS] = buf[base + threadIdx.x + TILE_THREADS];
  __syncthreads();
  for (int j = TILE / 2; j > 0; j /= 2) {
    compare_exchange(s, base, threadIdx.x, j, k);
    __syncthreads();
  }
  buf[base + threadIdx.x] = s[threadIdx.x];
  buf[base + threadIdx.x + TILE_THREADS] = s[threadIdx.x + TILE_THREADS];
}

// One stage (k, j) with j >= TILE, in global memory: thread t owns the pair (i, i + j).
__global__ void global_stage(float* buf, int p, int j, int k) {
  const int t = blockIdx.x * THREADS + threadIdx.x;
  if (t < p / 2) compare_exchange(buf, 0, t, j, k);
}

// data points to GPU memory; the sorted result must end up in it.
extern "C" void solve(float* data, int N) {
  int p = TILE;  // at least one whole tile, padded with +inf
  while (p < N) p *= 2;
  float* buf = nullptr;
  cudaMalloc(&buf, (size_t)p * sizeof(float));
  pad_copy<<<(p + THREADS - 1) / THREADS, THREADS>>>(data, buf, N, p);
  const int tiles = p / TILE;
  sort_tiles<<<tiles, TILE_THREADS>>>(buf);
  for (int k = 2 * TILE; k <= p; k *= 2) {
    for (int j = k / 2; j >= TILE; j /= 2) global_stage<<<(p / 2 + THREADS - 1) / THREADS, THREADS>>>(buf, p, j, k);
    merge_tiles<<<tiles, TILE_THREADS>>>(buf, k);
  }
  cudaMemcpy(data, buf, (size_t)N * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(buf);
}
