// expect: wrong_answer
// expect-message: elements wrong
// Two levels where any N needs as many as it takes: tiles of 1024 elements are scanned, then the tile totals are
// scanned by ONE block of 1024 threads, and nothing scans a third level. Correct up to 1024 tiles (N <= 1,048,576),
// so every small test passes; past that, the totals of tiles 1024 and later are never scanned, and those tiles get a
// wrong offset. The tests ones_2100001 and uniform_2100001 (2,051 tiles) catch it.
#include <cuda_runtime.h>

#define BLOCK 1024

__device__ float warp_scan(float v) {
  for (int d = 1; d < 32; d *= 2) {
    const float up = __shfl_up_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 >= d) v += up;
  }
  return v;
}

// Inclusive scan of one element per thread across a block of 1024 threads.
__device__ float block_scan(float v) {
  __shared__ float warp_total[32];
  v = warp_scan(v);
  if (threadIdx.x % 32 == 31) warp_total[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) warp_total[threadIdx.x] = warp_scan(warp_total[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x >= 32) v += warp_total[threadIdx.x / 32 - 1];
  return v;
}

__global__ void scan_tiles(const float* in, float* out, float* sums, int n) {
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const float v = block_scan(i < n ? in[i] : 0.0f);
  if (i < n) out[i] = v;
  if (threadIdx.x == BLOCK - 1) sums[blockIdx.x] = v;
}

// BUG: one block, so only sums[0..1023] are scanned.
__global__ void scan_sums(float* sums, int tiles) {
  const float v = block_scan(threadIdx.x < tiles ? sums[threadIdx.x] : 0.0f);
  if (threadIdx.x < tiles) sums[threadIdx.x] = v;
}

__global__ void add_offsets(float* out, const float* sums, int n) {
  const int i = (blockIdx.x + 1) * BLOCK + threadIdx.x;
  if (i < n) out[i] += sums[blockIdx.x];
}

extern "C" void solve(const float* input, float* output, int N) {
  const int tiles = (N + BLOCK - 1) / BLOCK;
  float* sums = nullptr;
  cudaMalloc(&sums, tiles * sizeof(float));
  scan_tiles<<<tiles, BLOCK>>>(input, output, sums, N);
  if (tiles > 1) {
    scan_sums<<<1, BLOCK>>>(sums, tiles);
    add_offsets<<<tiles - 1, BLOCK>>>(output, sums, N);
  }
  cudaDeviceSynchronize();
  cudaFree(sums);
}
