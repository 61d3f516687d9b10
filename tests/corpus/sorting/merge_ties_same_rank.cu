// expect: wrong_answer
// Bottom-up merge sort where each element finds its place in the merged run directly: its index in its own run plus
// the number of elements of the other run that go before it. For equal keys the two runs must use different rules
// (left run: elements of the right run strictly smaller; right run: elements of the left run smaller OR EQUAL), so
// that ties get distinct slots. Here both runs count only the strictly smaller ones: a left and a right element with
// the same value land in the same slot, and another slot keeps whatever the buffer held. few_values_100003 catches it
// at once, and random inputs of a million values have ties too.
#include <cuda_runtime.h>

#define THREADS 256

// Number of elements of a[0, len) strictly smaller than x.
__device__ int count_less(const float* a, int len, float x) {
  int lo = 0, hi = len;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (a[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// Merges runs of `width` sorted elements pairwise from in to out.
__global__ void merge_pass(const float* in, float* out, int n, int width) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= n) return;
  const int start = i / (2 * width) * (2 * width);
  const int mid = min(start + width, n), end = min(start + 2 * width, n);
  const float x = in[i];
  int pos;
  if (i < mid) pos = start + (i - start) + count_less(in + mid, end - mid, x);
  else pos = start + (i - mid) + count_less(in + start, mid - start, x);  // BUG: should also count equal ones
  out[pos] = x;
}

extern "C" void solve(float* data, int N) {
  float* tmp = nullptr;
  cudaMalloc(&tmp, (size_t)N * sizeof(float));
  float *src = data, *dst = tmp;
  const int blocks = (N + THREADS - 1) / THREADS;
  for (int width = 1; width < N; width *= 2) {
    merge_pass<<<blocks, THREADS>>>(src, dst, N, width);
    float* t = src;
    src = dst;
    dst = t;
  }
  if (src != data) cudaMemcpy(data, src, (size_t)N * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
  cudaFree(tmp);
}
