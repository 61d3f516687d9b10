// expect: wrong_answer
// Rung 1 that reads a weight of 0 off the diagonal as "no edge" (the convention of unweighted adjacency matrices):
// zero-weight edges become +inf. zeros_8 fails: every edge weighs 0 there, so every distance is 0, not +inf.
#include <cuda_runtime.h>

__global__ void prepare(const float* dist, float* d, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n * n) return;
  float w = dist[e];
  d[e] = (w == 0.f && e / n != e % n) ? __int_as_float(0x7f800000) : w;
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
