// expect: wrong_answer
// expect-message: must be 0.0
// Rung 1 with the predicate written A[i] >= 0 instead of A[i] > 0: zeros (and -0.0, since -0.0 >= 0) are kept too.
// On random inputs exact zeros almost never occur, so only the cases with zeros catch it: the statement's example
// [1, -2, 3, 0, -1, 4] gives [1, 3, 0, 4, 0, 0], so out[3] is 4 where 0.0 belongs; signed_zeros_8 and
// sparse_3_of_100003 fail the same way.
#include <cuda_runtime.h>

#define BLOCK 256
#define SCAN_THREADS 1024
#define WARPS (BLOCK / 32)

// counts[b] = how many of block b's elements are positive.
__global__ void count_kernel(const float* A, int n, int* counts) {
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const int keep = i < n && A[i] >= 0.0f;
  const int c = __syncthreads_count(keep);
  if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

// One block: offsets[b] = counts[0] + ... + counts[b - 1], and offsets[blocks] = the total. SCAN_THREADS counts at a
// time, each chunk scanned in shared memory (Hillis-Steele) and shifted by the running total of the chunks before.
__global__ void scan_counts(const int* counts, int* offsets, int blocks) {
  __shared__ int buf[SCAN_THREADS];
  __shared__ int carry;
  if (threadIdx.x == 0) carry = 0;
  for (int base = 0; base < blocks; base += SCAN_THREADS) {
    const int i = base + threadIdx.x;
    const int v = i < blocks ? counts[i] : 0;
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int d = 1; d < SCAN_THREADS; d *= 2) {
      const int add = threadIdx.x >= d ? buf[threadIdx.x - d] : 0;
      __syncthreads();  // every thread has read before anyone writes
      buf[threadIdx.x] += add;
      __syncthreads();
    }
    if (i < blocks) offsets[i] = carry + buf[threadIdx.x] - v;  // inclusive minus own = exclusive
    __syncthreads();  // every thread has read carry
    if (threadIdx.x == SCAN_THREADS - 1) carry += buf[SCAN_THREADS - 1];
    __syncthreads();
  }
  if (threadIdx.x == 0) offsets[blocks] = carry;
}

// Kept elements go to offsets[block] + (kept elements before them in the block); positions from the total k on get 0.
// The two sets of writes never meet: kept elements land below k, zeros at k and above.
__global__ void scatter_kernel(const float* A, int n, const int* offsets, int blocks, float* out) {
  __shared__ int warp_count[WARPS];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float x = i < n ? A[i] : 0.0f;
  const bool keep = i < n && x >= 0.0f  /* wrong: keeps 0.0 and -0.0 */;
  const unsigned ballot = __ballot_sync(0xffffffffu, keep);
  if (lane == 0) warp_count[warp] = __popc(ballot);
  __syncthreads();
  int before = __popc(ballot & ((1u << lane) - 1u));  // kept lanes below this one
  for (int w = 0; w < warp; ++w) before += warp_count[w];
  if (keep) out[offsets[blockIdx.x] + before] = x;
  if (i < n && i >= offsets[blocks]) out[i] = 0.0f;
}

// A and out point to GPU memory.
extern "C" void solve(const float* A, int N, float* out) {
  const int blocks = (N + BLOCK - 1) / BLOCK;
  // counts (blocks ints) and offsets (blocks + 1 ints), kept between calls and grown when N needs more
  static int* scratch = nullptr;
  static int capacity = 0;
  if (2 * blocks + 1 > capacity) {
    cudaFree(scratch);
    capacity = 2 * blocks + 1;
    cudaMalloc(&scratch, capacity * sizeof(int));
  }
  int* counts = scratch;
  int* offsets = scratch + blocks;
  count_kernel<<<blocks, BLOCK>>>(A, N, counts);
  scan_counts<<<1, SCAN_THREADS>>>(counts, offsets, blocks);
  scatter_kernel<<<blocks, BLOCK>>>(A, N, offsets, blocks, out);
  cudaDeviceSynchronize();
}
