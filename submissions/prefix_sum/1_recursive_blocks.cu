// Rung 1: scan each block of 256 elements in shared memory (Hillis-Steele, double-buffered so no thread reads a slot
// another thread is overwriting), keep each block's total, scan the totals the same way (recursively, as many levels
// as N needs: 256 blocks of 256 cover 65,536 elements, three levels 16.7M), then add to each block the prefix of the
// blocks before it. Simple and correct for any N; it reads and writes the data about twice.
#include <cuda_runtime.h>

#define BLOCK 256

// out[i] = inclusive scan of in[] within block i / BLOCK; block_sums[b] = total of block b. in may equal out.
__global__ void block_scan(const float* in, float* out, float* block_sums, int n) {
  __shared__ float buf[2][BLOCK];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  int cur = 0;
  buf[cur][threadIdx.x] = i < n ? in[i] : 0.0f;  // zeros past the end change no prefix
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset *= 2) {
    float v = buf[cur][threadIdx.x];
    if (threadIdx.x >= offset) v += buf[cur][threadIdx.x - offset];
    buf[1 - cur][threadIdx.x] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][threadIdx.x];
  if (threadIdx.x == BLOCK - 1) block_sums[blockIdx.x] = buf[cur][BLOCK - 1];
}

// Block b + 1 gets the inclusive prefix of blocks 0..b; block 0 has nothing before it.
__global__ void add_block_prefix(float* out, const float* scanned_sums, int n) {
  const int i = (blockIdx.x + 1) * BLOCK + threadIdx.x;
  if (i < n) out[i] += scanned_sums[blockIdx.x];
}

static void scan(const float* in, float* out, int n) {
  const int blocks = (n + BLOCK - 1) / BLOCK;
  float* sums = nullptr;
  cudaMalloc(&sums, blocks * sizeof(float));
  block_scan<<<blocks, BLOCK>>>(in, out, sums, n);
  if (blocks > 1) {
    scan(sums, sums, blocks);  // the block totals need a prefix sum of their own
    add_block_prefix<<<blocks - 1, BLOCK>>>(out, sums, n);
  }
  cudaFree(sums);  // waits for the kernels above
}

// input and output point to GPU memory.
extern "C" void solve(const float* input, float* output, int N) {
  scan(input, output, N);
  cudaDeviceSynchronize();
}
