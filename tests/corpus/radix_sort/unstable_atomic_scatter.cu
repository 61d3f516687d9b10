// expect: wrong_answer
// expect-message: is not sorted
// An 8-bit LSD radix sort whose scatter is not stable: each key takes its slot in its bucket with
// atomicAdd(&offset[digit], 1), so keys of one bucket land in whatever order their threads reach the atomic, not in
// their order in src. The last pass is then right about the top byte, but the order the first three passes built
// among keys with the same top byte is scrambled. With one warp the lanes happen to go in order, so the tiny tests
// may pass; n65537 and n1000000 (thousands of keys per top-byte bucket, from hundreds of blocks in flight) fail.
#include <cuda_runtime.h>

#define THREADS 256
#define RADIX 256

__global__ void histogram(const unsigned int* keys, unsigned int* count, int n, int shift) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) atomicAdd(&count[(keys[i] >> shift) & (RADIX - 1)], 1u);
}

// One block of RADIX threads: offset = exclusive scan of count.
__global__ void bucket_offsets(const unsigned int* count, unsigned int* offset) {
  __shared__ unsigned int c[RADIX];
  c[threadIdx.x] = count[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int sum = 0;
    for (int d = 0; d < RADIX; ++d) {
      const unsigned int x = c[d];
      c[d] = sum;
      sum += x;
    }
  }
  __syncthreads();
  offset[threadIdx.x] = c[threadIdx.x];
}

__global__ void scatter(const unsigned int* src, unsigned int* dst, unsigned int* offset, int n, int shift) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= n) return;
  const unsigned int key = src[i];
  const unsigned int pos = atomicAdd(&offset[(key >> shift) & (RADIX - 1)], 1u);  // BUG: arrival order, not index order
  dst[pos] = key;
}

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
  unsigned int *tmp = nullptr, *count = nullptr, *offset = nullptr;
  cudaMalloc(&tmp, (size_t)N * sizeof(unsigned int));
  cudaMalloc(&count, RADIX * sizeof(unsigned int));
  cudaMalloc(&offset, RADIX * sizeof(unsigned int));
  const int blocks = (N + THREADS - 1) / THREADS;
  const unsigned int* src = input;
  for (int pass = 0; pass < 4; ++pass) {
    unsigned int* dst = pass % 2 == 0 ? tmp : output;
    cudaMemset(count, 0, RADIX * sizeof(unsigned int));
    histogram<<<blocks, THREADS>>>(src, count, N, 8 * pass);
    bucket_offsets<<<1, RADIX>>>(count, offset);
    scatter<<<blocks, THREADS>>>(src, dst, offset, N, 8 * pass);
    src = dst;
  }
  cudaDeviceSynchronize();
  cudaFree(tmp);
  cudaFree(count);
  cudaFree(offset);
}
