// expect: memory_violation
// expect-message: past the end of output
// Finds t, the k-th largest value, exactly (radix select on order-preserving keys), then assumes that exactly k
// values are >= t and gathers them straight into the output. When t is tied, more than k values are >= t, and the
// gather writes past the end of the k-element output. ties_at_threshold_4099 (2,050 copies of the threshold value,
// 975 of them in the answer) catches it, and so does all_equal_1000 (every value ties).
#include <cuda_runtime.h>

#define THREADS 256
#define BINS 256

__device__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__global__ void histogram(const float* x, int n, unsigned prefix, int shift, unsigned* hist) {
  __shared__ unsigned h[BINS];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
    const unsigned key = key_of(x[i]);
    if (shift == 24 || (key >> (shift + 8)) == (prefix >> (shift + 8))) atomicAdd(&h[(key >> shift) & 0xffu], 1u);
  }
  __syncthreads();
  if (h[threadIdx.x]) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

// BUG: no bound on the count: with ties at t there are more than k values >= t.
__global__ void gather_at_least(const float* x, int n, unsigned t, float* out, unsigned* count) {
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
    if (key_of(x[i]) >= t) out[atomicAdd(count, 1u)] = x[i];
}

// One block, odd-even transposition sort of out[0, k) descending (k rounds).
__global__ void sort_output(float* out, int k) {
  for (int round = 0; round < k; ++round) {
    for (int i = 2 * threadIdx.x + (round & 1); i + 1 < k; i += 2 * blockDim.x)
      if (out[i] < out[i + 1]) {
        const float a = out[i];
        out[i] = out[i + 1];
        out[i + 1] = a;
      }
    __syncthreads();
  }
}

extern "C" void solve(const float* input, float* output, int N, int k) {
  unsigned* hist = nullptr;
  cudaMalloc(&hist, (BINS + 1) * sizeof(unsigned));
  unsigned h[BINS];
  int blocks = (N + THREADS - 1) / THREADS;
  if (blocks > 1024) blocks = 1024;
  unsigned t = 0, remaining = k;
  for (int shift = 24; shift >= 0; shift -= 8) {
    cudaMemset(hist, 0, BINS * sizeof(unsigned));
    histogram<<<blocks, THREADS>>>(input, N, t, shift, hist);
    cudaMemcpy(h, hist, sizeof(h), cudaMemcpyDeviceToHost);
    int b = BINS - 1;
    while (h[b] < remaining) remaining -= h[b--];
    t |= (unsigned)b << shift;
  }
  cudaMemset(hist + BINS, 0, sizeof(unsigned));
  gather_at_least<<<blocks, THREADS>>>(input, N, t, output, hist + BINS);
  sort_output<<<1, 1024>>>(output, k);
  cudaDeviceSynchronize();
  cudaFree(hist);
}
