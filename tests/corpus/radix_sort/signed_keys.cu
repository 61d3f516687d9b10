// expect: wrong_answer
// expect-message: is not sorted
// Rung 1 of the examples adapted from a sort of signed int keys: on the last pass, bit 31 is treated as a sign bit,
// so the keys with it set ("negative") go first. For unsigned keys 0x80000000 and above are the largest values, so
// they end up before all the others. Passes the examples (small values); top_bit_1001 and every full-range test
// fail, with the first descent where the keys >= 2^31 meet the rest.
#include <cuda_runtime.h>

#include <vector>

#define THREADS 256

// flags[i] = 1 when bit `bit` of keys[i] is 0.
__global__ void zero_flags(const unsigned int* keys, unsigned int* flags, int n, int bit) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  // BUG: bit 31 handled as a sign bit (the rule for signed keys): keys with it set are "negative" and go first.
  if (i < n) flags[i] = bit == 31 ? ((keys[i] >> bit) & 1u) == 1u : ((keys[i] >> bit) & 1u) == 0u;
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
  const bool last_first = bit == 31 ? ((last >> bit) & 1u) == 1u : ((last >> bit) & 1u) == 0u;
  const bool key_first = bit == 31 ? ((key >> bit) & 1u) == 1u : ((key >> bit) & 1u) == 0u;
  const unsigned int total_first = zeros_before[n - 1] + last_first;
  const unsigned int z = zeros_before[i];
  const unsigned int pos = key_first ? z : total_first + (i - z);
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
