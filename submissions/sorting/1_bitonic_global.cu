// Rung 1: bitonic sort in global memory. A bitonic network sorts exactly a power of two of elements, so the data is
// copied into a buffer of the next power of two, padded with +infinity (which sorts to the end and is never copied
// back), sorted by one kernel launch per compare-exchange stage (log2(P) * (log2(P) + 1) / 2 of them), and the first
// N elements are copied back. Simple, and every stage reads and writes the whole buffer.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void pad_copy(const float* data, float* buf, int n, int p) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < p) buf[i] = i < n ? data[i] : INFINITY;
}

// One stage (k, j) over p/2 pairs: thread t owns the pair (i, i + j). Within each run of k elements the direction
// alternates (ascending where bit k of i is clear), so that the next stage merges bitonic sequences.
__global__ void bitonic_stage(float* buf, int p, int j, int k) {
  const int t = blockIdx.x * THREADS + threadIdx.x;
  if (t >= p / 2) return;
  const int i = 2 * j * (t / j) + t % j;
  const float a = buf[i], b = buf[i + j];
  const bool ascending = (i & k) == 0;
  if ((a > b) == ascending) {
    buf[i] = b;
    buf[i + j] = a;
  }
}

// data points to GPU memory; the sorted result must end up in it.
extern "C" void solve(float* data, int N) {
  int p = 1;
  while (p < N) p *= 2;
  float* buf = nullptr;
  cudaMalloc(&buf, (size_t)p * sizeof(float));
  pad_copy<<<(p + THREADS - 1) / THREADS, THREADS>>>(data, buf, N, p);
  const int pair_blocks = (p / 2 + THREADS - 1) / THREADS;
  for (int k = 2; k <= p; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) bitonic_stage<<<pair_blocks, THREADS>>>(buf, p, j, k);
  cudaMemcpy(data, buf, (size_t)N * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(buf);
}
