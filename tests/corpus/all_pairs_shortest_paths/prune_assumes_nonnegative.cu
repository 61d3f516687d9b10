// expect: wrong_answer
// Rung 1 with a pruning that is only valid for non-negative weights: skip the relaxation when output[i][k] is already
// no shorter than output[i][j], since then output[i][k] + output[k][j] >= output[i][j] if output[k][j] >= 0. With
// negative edges output[k][j] can be negative and the skipped path shorter. negative_edges_200 fails (LeetGPU's
// negative_dag_4 happens to pass: its skipped relaxations improve nothing).
#include <cuda_runtime.h>

__global__ void prepare(const float* dist, float* d, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n * n) return;
  d[e] = dist[e];
}

__global__ void relax_through_k(float* d, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float dik = d[(size_t)i * n + k], dij = d[(size_t)i * n + j];
  if (dik >= dij) return;  // wrong when output[k][j] < 0
  float v = dik + d[(size_t)k * n + j];
  if (v < dij) d[(size_t)i * n + j] = v;
}

extern "C" void solve(const float* dist, float* output, int N) {
  prepare<<<(N * N + 255) / 256, 256>>>(dist, output, N);
  dim3 threads(32, 8);
  dim3 blocks((N + threads.x - 1) / threads.x, (N + threads.y - 1) / threads.y);
  for (int k = 0; k < N; ++k) relax_through_k<<<blocks, threads>>>(output, N, k);
  cudaDeviceSynchronize();
}
