// expect: wrong_answer
// One min-plus product instead of N relaxation rounds: output[i][j] = min over k of dist[i][k] + dist[k][j], which
// finds paths of at most two edges. example_4 fails: 0 -> 3 needs three edges (0 -> 1 -> 2 -> 3 = 9) and this keeps
// the direct 10; the sparse tests fail everywhere.
#include <cuda_runtime.h>

__global__ void min_plus(const float* d, float* out, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float best = d[(size_t)i * n + j];
  for (int k = 0; k < n; ++k) best = fminf(best, d[(size_t)i * n + k] + d[(size_t)k * n + j]);
  out[(size_t)i * n + j] = best;
}

extern "C" void solve(const float* dist, float* output, int N) {
  dim3 threads(32, 8);
  dim3 blocks((N + threads.x - 1) / threads.x, (N + threads.y - 1) / threads.y);
  min_plus<<<blocks, threads>>>(dist, output, N);
  cudaDeviceSynchronize();
}
