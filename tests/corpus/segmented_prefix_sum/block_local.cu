// expect: wrong_answer
// expect-message: elements wrong
// Each block of 256 threads scans its own 256 elements (a correct segmented Hillis-Steele scan in shared memory) and
// starts from 0, as if every block began a segment: nothing is carried from one block into the next. On LeetGPU's
// benchmark layout, where a segment starts at every multiple of 256, that happens to be right (so does
// period_256_65537 here). A segment that crosses a block boundary is wrong from there on: one_segment_1025 catches
// it at element 256, and so do the random layouts.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_scan(const float* values, const int* flags, float* output, int n) {
  __shared__ float sum[THREADS];
  __shared__ int seen[THREADS];  // a flag at or before this element, within the block
  const int t = threadIdx.x;
  const int i = blockIdx.x * THREADS + t;
  const int flag = i < n ? flags[i] : 0;
  sum[t] = i < n ? values[i] : 0.0f;
  seen[t] = flag;
  __syncthreads();
  for (int d = 1; d < THREADS; d *= 2) {  // inclusive segmented scan
    const float up_sum = t >= d ? sum[t - d] : 0.0f;
    const int up_seen = t >= d ? seen[t - d] : 0;
    __syncthreads();
    if (t >= d) {
      if (!seen[t]) sum[t] += up_sum;
      seen[t] |= up_seen;
    }
    __syncthreads();
  }
  // Exclusive: 0 at a flag, else the inclusive sum of the element before (same segment). Thread 0 assumes 0.
  if (i < n) output[i] = flag || t == 0 ? 0.0f : sum[t - 1];
}

extern "C" void solve(const float* values, const int* flags, float* output, int N) {
  block_scan<<<(N + THREADS - 1) / THREADS, THREADS>>>(values, flags, output, N);
  cudaDeviceSynchronize();
}
