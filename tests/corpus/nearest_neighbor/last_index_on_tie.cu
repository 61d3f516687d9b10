// expect: wrong_answer
// Rung 1 with <= instead of <: on a tie the candidate seen last (the highest index) wins, where LeetGPU's argmin and
// the statement keep the lowest. square_ties_4 fails: every corner of the unit square has two neighbours at distance
// 1, and this writes [2, 3, 3, 2] instead of [1, 0, 0, 1].
#include <cuda_runtime.h>

__global__ void nearest(const float* points, int* indices, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float px = points[3 * i], py = points[3 * i + 1], pz = points[3 * i + 2];
  float best = 3.4e38f;
  int best_j = 0;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    float dx = px - points[3 * j], dy = py - points[3 * j + 1], dz = pz - points[3 * j + 2];
    float d = dx * dx + dy * dy + dz * dz;
    if (d <= best) {
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
