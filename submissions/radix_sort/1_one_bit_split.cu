// Rung 1: radix sort one bit at a time (radix 2), 32 passes. Each pass is a "split": the keys whose bit is 0 go
// first, in their current order, then the keys whose bit is 1, in their current order. The destination of a 0-key is
// the number of 0-keys before it (an exclusive prefix sum of the flags "bit is 0"); that of a 1-key is the total
// number of 0-keys plus the number of 1-keys before it (its index minus the 0-keys before it). Both are stable by
// construction, which is what makes the least-significant-bit-first order correct.
#include <cuda_runtime.h>

#include <vector>

#define THREADS 256

// flags[i] = 1 when bit `bit` of keys[i] is 0.
__global__ void zero_flags(const unsigned int* keys, unsigned int* flags, int n, int bit) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) flags[i] = ((keys[i] >> bit) & 1u) == 0u;
}

// Exclusive scan of each block's THREADS elements (in and out may be the same array); the block's total goes to
// block_sums[blockIdx.x] when there is more than one block. Hillis-Steele in shared memory, double-buffered.
__global__ void scan_blocks(const unsigned int* in, unsigned int* out, unsigned int* block_sums, int n) {
  __shared__ unsigned int buf[2][THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  const unsigned int x = i < n ? in[i] : 0u;
  int cur = 0;
  buf[cur][threadIdx.x] = x;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset *= 2) {
    unsigned int v = buf[cur][threadIdx.x];
    if (threadIdx.x >= offset) v += buf[cur][threadIdx.x - offset];
    buf[1 - cur][threadIdx.x] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  const unsigned int inclusive = buf[cur][threadIdx.x];
  if (i < n) out[i] = inclusive - x;
  if (block_sums != nullptr && threadIdx.x == THREADS - 1) block_sums[blockIdx.x] = inclusive;
}

__global__ void add_block_offsets(unsigned int* data, const unsigned int* offsets, int n) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) data[i] += offsets[blockIdx.x];
}

// Exclusive scan of data[0, n) in place. levels[k] has room for the block sums of level k (see solve()).
void exclusive_scan(unsigned int* data, int n, unsigned int* const* levels) {
  const int blocks = (n + THREADS - 1) / THREADS;
  if (blocks == 1) {
    scan_blocks<<<1, THREADS>>>(data, data, nullptr, n);
    return;
  }
  scan_blocks<<<blocks, THREADS>>>(data, data, levels[0], n);
  exclusive_scan(levels[0], blocks, levels + 1);
  add_block_offsets<<<blocks, THREADS>>>(data, levels[0], n);
}

// Moves each key of src to its place in dst for this bit. zeros_before[i] is the exclusive scan of the flags; the
// total number of 0-keys is the last scan value plus the last flag.
__global__ void split(const unsigned int* src, unsigned int* dst, const unsigned int* zeros_before, int n, int bit) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= n) return;
  const unsigned int key = src[i];
  const unsigned int last = src[n - 1];
  const unsigned int total_zeros = zeros_before[n - 1] + (((last >> bit) & 1u) == 0u);
  const unsigned int z = zeros_before[i];
  const unsigned int pos = ((key >> bit) & 1u) == 0u ? z : total_zeros + (i - z);
  dst[pos] = key;
}

// input, output are device pointers
extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
  // Scratch: the other ping-pong buffer, the flags/scan array, and the block sums of every scan level.
  std::vector<int> level_sizes;
  for (int m = (N + THREADS - 1) / THREADS; m > 1; m = (m + THREADS - 1) / THREADS) level_sizes.push_back(m);
  size_t total = 2 * (size_t)N;
  for (int s : level_sizes) total += s;
  unsigned int* scratch = nullptr;
  cudaMalloc(&scratch, total * sizeof(unsigned int));
  unsigned int* tmp = scratch;
  unsigned int* scan = scratch + N;
  std::vector<unsigned int*> levels;
  unsigned int* p = scratch + 2 * (size_t)N;
  for (int s : level_sizes) {
    levels.push_back(p);
    p += s;
  }
  levels.push_back(nullptr);  // never used: the last level fits one block

  const int blocks = (N + THREADS - 1) / THREADS;
  // 32 passes: input -> tmp -> output -> tmp -> ... -> output (an even number, so the last one writes output).
  const unsigned int* src = input;
  for (int bit = 0; bit < 32; ++bit) {
    unsigned int* dst = bit % 2 == 0 ? tmp : output;
    zero_flags<<<blocks, THREADS>>>(src, scan, N, bit);
    exclusive_scan(scan, N, levels.data());
    split<<<blocks, THREADS>>>(src, dst, scan, N, bit);
    src = dst;
  }
  cudaDeviceSynchronize();
  cudaFree(scratch);
}
