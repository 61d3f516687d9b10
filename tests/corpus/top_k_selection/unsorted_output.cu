// expect: wrong_answer
// The right k values in the wrong order. The radix select is correct (it finds t, the k-th largest, exactly, and the
// number of copies of t that belong in the answer), but the values above t are written in the order the gathering
// atomics handed out slots, and the sort that should follow is missing. The output must be in descending order, as
// LeetGPU's torch.topk gives it; the example test already fails ([4.5, 9, 9, 3] instead of [9, 9, 4.5, 3]).
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define BINS 256

__device__ unsigned key_of(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__device__ float float_of(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

// Histogram of the 8-bit digit at `shift`, among the keys whose bits above the digit equal prefix's.
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

// Every value whose key is above t, in any order (there are fewer than k of them).
__global__ void gather_above(const float* x, int n, unsigned t, float* out, unsigned* count) {
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
    if (key_of(x[i]) > t) out[atomicAdd(count, 1u)] = x[i];
}

// output[i] = values[i] for the values above t, then copies of t.
__global__ void finish(const float* values, int above, unsigned t, float* out, int k) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < k) out[i] = i < above ? values[i] : float_of(t);
}

// input and output point to GPU memory; output has room for k floats.
extern "C" void solve(const float* input, float* output, int N, int k) {
  unsigned* hist = nullptr;  // 256 bins, then the gather counter
  cudaMalloc(&hist, (BINS + 1) * sizeof(unsigned));
  unsigned h[BINS];
  int blocks = (N + THREADS - 1) / THREADS;
  if (blocks > 1024) blocks = 1024;

  unsigned t = 0, remaining = k;  // remaining: how many of the k largest are still to be found below the prefix
  for (int shift = 24; shift >= 0; shift -= 8) {
    cudaMemset(hist, 0, BINS * sizeof(unsigned));
    histogram<<<blocks, THREADS>>>(input, N, t, shift, hist);
    cudaMemcpy(h, hist, sizeof(h), cudaMemcpyDeviceToHost);
    int b = BINS - 1;
    while (h[b] < remaining) remaining -= h[b--];  // bins above b hold fewer than `remaining` keys
    t |= (unsigned)b << shift;
  }
  // t is the k-th largest key; `remaining` copies of it belong in the output, after k - remaining larger values.
  const int above = k - (int)remaining;
  float* buf = nullptr;
  cudaMalloc(&buf, (size_t)(above > 0 ? above : 1) * sizeof(float));
  cudaMemset(hist + BINS, 0, sizeof(unsigned));
  gather_above<<<blocks, THREADS>>>(input, N, t, buf, hist + BINS);
  // BUG: the values above t go out in the order the atomics gathered them; they are never sorted.
  finish<<<(k + THREADS - 1) / THREADS, THREADS>>>(buf, above, t, output, k);
  cudaDeviceSynchronize();
  cudaFree(buf);
  cudaFree(hist);
}
