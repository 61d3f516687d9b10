// expect: wrong_answer
// Rung 1 that starts from best_j = -1, so a point with no other point keeps -1. single_point (N = 1) fails: LeetGPU's
// reference writes 0 there (argmin of a row that is all +inf), as the statement says. Every other case passes.
#include <cuda_runtime.h>

__global__ void nearest(const float* points, int* indices, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float px = points[3 * i], py = points[3 * i + 1], pz = points[3 * i + 2];
  float best = 3.4e38f;
  int best_j = -1;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    float dx = px - points[3 * j], dy = py - points[3 * j + 1], dz = pz - points[3 * j + 2];
    float d = dx * dx + dy * dy + dz * dz;
    if (d < best) {
      best = d;
      best_j = j;
    }
  }
  indices[i] = best_j;
}

extern "C" void solve(const float* points, int* indices, int N) {
  nearest<<<(N + 255) / 256, 256>>>(points, indices, N);
  cudaDeviceSynchronize();
}
