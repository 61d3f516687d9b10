// expect: wrong_answer
// expect-message: elements wrong
// Blocks of 256 carry into each other, but the carry is the plain (unsegmented) sum of everything in the earlier
// blocks, as in an ordinary prefix sum. The carry must be the sum since the last flag before this block: values
// before that flag belong to another segment. Right when every segment starts at a block boundary, or when there is
// only one segment (one_segment_1025 passes); wrong for the first elements of any block that a segment starting
// mid-block runs into: mean300_4097 and ones_mean100000_2100001 catch it.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_sums(const float* values, float* sums, int n) {
  __shared__ float s[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  s[threadIdx.x] = i < n ? values[i] : 0.0f;
  __syncthreads();
  for (int half = THREADS / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = s[0];
}

// One thread: carries[b] = sums[0] + ... + sums[b-1], ignoring every flag.
__global__ void plain_carries(const float* sums, float* carries, int blocks) {
  float acc = 0.0f;
  for (int b = 0; b < blocks; ++b) {
    carries[b] = acc;
    acc += sums[b];
  }
}

__global__ void block_scan(const float* values, const int* flags, const float* carries, float* output, int n) {
  __shared__ float sum[THREADS];
  __shared__ int seen[THREADS];
  const int t = threadIdx.x;
  const int i = blockIdx.x * THREADS + t;
  const int flag = i < n ? flags[i] : 0;
  sum[t] = i < n ? values[i] : 0.0f;
  seen[t] = flag;
  __syncthreads();
  for (int d = 1; d < THREADS; d *= 2) {
    const float up_sum = t >= d ? sum[t - d] : 0.0f;
    const int up_seen = t >= d ? seen[t - d] : 0;
    __syncthreads();
    if (t >= d) {
      if (!seen[t]) sum[t] += up_sum;
      seen[t] |= up_seen;
    }
    __syncthreads();
  }
  if (i < n) {
    const float local = flag || t == 0 ? 0.0f : sum[t - 1];
    output[i] = seen[t] ? local : carries[blockIdx.x] + local;  // no flag yet in this block: add the carry
  }
}

extern "C" void solve(const float* values, const int* flags, float* output, int N) {
  const int blocks = (N + THREADS - 1) / THREADS;
  float* scratch = nullptr;
  cudaMalloc(&scratch, 2 * sizeof(float) * blocks);
  block_sums<<<blocks, THREADS>>>(values, scratch, N);
  plain_carries<<<1, 1>>>(scratch, scratch + blocks, blocks);
  block_scan<<<blocks, THREADS>>>(values, flags, scratch + blocks, output, N);
  cudaDeviceSynchronize();
  cudaFree(scratch);
}
