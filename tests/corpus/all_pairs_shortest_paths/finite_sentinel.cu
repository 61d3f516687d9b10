// expect: wrong_answer
// Rung 1 that replaces +inf by the sentinel 1e9 so that sums cannot overflow, and forgets to turn it back: an
// unreachable pair comes out as 1e9 (or 1e9 plus a few edges) instead of +inf. example_4 fails on its lower
// triangle; a finite value never matches an infinite reference.
#include <cuda_runtime.h>

__global__ void prepare(const float* dist, float* d, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n * n) return;
  float w = dist[e];
  d[e] = w == __int_as_float(0x7f800000) ? 1e9f : w;
}

__global__ void relax_through_k(float* d, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float v = d[(size_t)i * n + k] + d[(size_t)k * n + j];
  if (v < d[(size_t)i * n + j]) d[(size_t)i * n + j] = v;
}

extern "C" void solve(const float* dist, float* output, int N) {
  prepare<<<(N * N + 255) / 256, 256>>>(dist, output, N);
  dim3 threads(32, 8);
  dim3 blocks((N + threads.x - 1) / threads.x, (N + threads.y - 1) / threads.y);
  for (int k = 0; k < N; ++k) relax_through_k<<<blocks, threads>>>(output, N, k);
  cudaDeviceSynchronize();
}
