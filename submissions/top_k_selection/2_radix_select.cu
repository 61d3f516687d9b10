// Rung 2: radix select, then sort only what is above the threshold. Each float becomes an unsigned key that orders
// like the value (flip all bits of a negative number, only the sign bit of the others). Four histogram passes over
// the input, 8 bits at a time from the top, find t, the key of the k-th largest value, exactly: at each pass, walk
// the 256 bins from the top until they hold the k-th. Then the values above t (fewer than k) are gathered and sorted
// descending, and the rest of the output is filled with copies of t: ties at the threshold come out right whatever
// their number. Since rung 1: 5 reads of the input and a sort of fewer than k values, instead of sorting all N.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define BINS 256
#define TILE 2048
#define TILE_THREADS (TILE / 2)

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

// The bitonic sort of rung 1 (descending, -inf padding), for the gathered values.
__global__ void pad(float* buf, int n, int p) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= n && i < p) buf[i] = -INFINITY;
}

__device__ void compare_exchange(float* s, int base, int t, int j, int k) {
  const int i = 2 * j * (t / j) + t % j;
  const float a = s[i], b = s[i + j];
  const bool descending = ((base + i) & k) == 0;
  if ((a < b) == descending) {
    s[i] = b;
    s[i + j] = a;
  }
}

__global__ void tile_stages(float* buf, int kmax) {
  __shared__ float s[TILE];
  const int base = blockIdx.x * TILE;
  s[threadIdx.x] = buf[base + threadIdx.x];
  s[threadIdx.x + TILE_THREADS] = buf[base + threadIdx.x + TILE_THREADS];
  __syncthreads();
  for (int k = kmax ? kmax : 2; k <= (kmax ? kmax : TILE); k *= 2)
    for (int j = (kmax ? TILE : k) / 2; j > 0; j /= 2) {
      compare_exchange(s, base, threadIdx.x, j, k);
      __syncthreads();
    }
  buf[base + threadIdx.x] = s[threadIdx.x];
  buf[base + threadIdx.x + TILE_THREADS] = s[threadIdx.x + TILE_THREADS];
}

__global__ void global_stage(float* buf, int p, int j, int k) {
  const int t = blockIdx.x * THREADS + threadIdx.x;
  if (t < p / 2) compare_exchange(buf, 0, t, j, k);
}

static void sort_descending(float* buf, int n, int p) {
  pad<<<(p + THREADS - 1) / THREADS, THREADS>>>(buf, n, p);
  tile_stages<<<p / TILE, TILE_THREADS>>>(buf, 0);
  for (int k = 2 * TILE; k <= p; k *= 2) {
    for (int j = k / 2; j >= TILE; j /= 2) global_stage<<<(p / 2 + THREADS - 1) / THREADS, THREADS>>>(buf, p, j, k);
    tile_stages<<<p / TILE, TILE_THREADS>>>(buf, k);
  }
}

// output[i] = sorted[i] for the values above t, then copies of t.
__global__ void finish(const float* sorted, int above, unsigned t, float* out, int k) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < k) out[i] = i < above ? sorted[i] : float_of(t);
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
  int p = TILE;
  while (p < above) p *= 2;
  float* buf = nullptr;
  cudaMalloc(&buf, (size_t)p * sizeof(float));
  cudaMemset(hist + BINS, 0, sizeof(unsigned));
  gather_above<<<blocks, THREADS>>>(input, N, t, buf, hist + BINS);
  sort_descending(buf, above, p);
  finish<<<(k + THREADS - 1) / THREADS, THREADS>>>(buf, above, t, output, k);
  cudaDeviceSynchronize();
  cudaFree(buf);
  cudaFree(hist);
}
