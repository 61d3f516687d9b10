// Rung 1: a thread per point scans every other point in index order and keeps the strictly nearest one, so the lowest
// index wins a tie. Every thread reads all 3 N coordinates from global memory (through L1/L2): N^2 loads for N^2
// distance evaluations, and with N = 10,000 only 40 blocks of 256 threads to spread over the GPU.
#include <cuda_runtime.h>

__global__ void nearest(const float* points, int* indices, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float px = points[3 * i], py = points[3 * i + 1], pz = points[3 * i + 2];
  float best = 3.4e38f;
  int best_j = 0;  // N = 1: no other point, the answer is 0
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    float dx = px - points[3 * j], dy = py - points[3 * j + 1], dz = pz - points[3 * j + 2];
    float d = dx * dx + dy * dy + dz * dz;
    if (d < best) {  // strict: the lowest index wins a tie
      best = d;
      best_j = j;
    }
  }
  indices[i] = best_j;
}

// points and indices are device pointers
extern "C" void solve(const float* points, int* indices, int N) {
  nearest<<<(N + 255) / 256, 256>>>(points, indices, N);
  cudaDeviceSynchronize();
}
