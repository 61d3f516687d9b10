// expect: wrong_answer
// A shared-memory tiled kernel that fills the slots of the last tile past N with zeros and scans the whole tile
// without a bound: the padding acts as extra points at the origin with indices >= N. Any point nearer to the origin
// than to every real point picks one of them: example_3 fails already (point 0 is the origin itself), and
// isolated_near_origin_37 is there for the same bug where no point sits exactly at the origin.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void nearest(const float* points, int* indices, int n) {
  __shared__ float4 tile[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  float px = 0.f, py = 0.f, pz = 0.f;
  if (i < n) px = points[3 * i], py = points[3 * i + 1], pz = points[3 * i + 2];
  float best = 3.4e38f;
  int best_j = 0;
  for (int base = 0; base < n; base += THREADS) {
    __syncthreads();
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? make_float4(points[3 * j], points[3 * j + 1], points[3 * j + 2], 0.f)
                              : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    for (int t = 0; t < THREADS; ++t) {  // bug: should stop at min(THREADS, n - base)
      float4 q = tile[t];
      float dx = px - q.x, dy = py - q.y, dz = pz - q.z;
      float d = dx * dx + dy * dy + dz * dz;
      if (d < best && base + t != i) {
        best = d;
        best_j = base + t;
      }
    }
  }
  if (i < n) indices[i] = best_j;
}

extern "C" void solve(const float* points, int* indices, int N) {
  nearest<<<(N + THREADS - 1) / THREADS, THREADS>>>(points, indices, N);
  cudaDeviceSynchronize();
}
