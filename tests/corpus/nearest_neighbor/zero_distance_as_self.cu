// expect: wrong_answer
// Rung 1 that excludes the point itself by its distance (d > 0) instead of its index: an exact duplicate of point i
// is then skipped too, although it is another point at distance 0 and the right answer. duplicates_2000 fails: its
// clumps on the integer grid give most points an exact copy.
#include <cuda_runtime.h>

__global__ void nearest(const float* points, int* indices, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float px = points[3 * i], py = points[3 * i + 1], pz = points[3 * i + 2];
  float best = 3.4e38f;
  int best_j = 0;
  for (int j = 0; j < n; ++j) {
    float dx = px - points[3 * j], dy = py - points[3 * j + 1], dz = pz - points[3 * j + 2];
    float d = dx * dx + dy * dy + dz * dz;
    if (d > 0.f && d < best) {
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
