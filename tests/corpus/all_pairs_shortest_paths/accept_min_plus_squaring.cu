// expect: accepted
// Not Floyd-Warshall: repeated min-plus squaring, D <- min(D, D (x) D), ceil(log2(N - 1)) times, so that paths of up
// to N - 1 edges are covered (no negative cycle: a shortest path never needs more). It adds a path's weights in a
// different grouping from the triple loop, and finds the same distances within float32 rounding: the tolerance
// accepts any correct algorithm, not only the statement's loop order. O(N^3 log N) work, so it is slower.
#include <cuda_runtime.h>

__global__ void square(const float* a, float* b, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float best = a[(size_t)i * n + j];
  for (int k = 0; k < n; ++k) best = fminf(best, a[(size_t)i * n + k] + a[(size_t)k * n + j]);
  b[(size_t)i * n + j] = best;
}

extern "C" void solve(const float* dist, float* output, int N) {
  size_t bytes = sizeof(float) * N * N;
  float* tmp = nullptr;
  cudaMalloc(&tmp, bytes);
  cudaMemcpy(output, dist, bytes, cudaMemcpyDeviceToDevice);
  dim3 threads(32, 8);
  dim3 blocks((N + threads.x - 1) / threads.x, (N + threads.y - 1) / threads.y);
  for (int hops = 1; hops < N - 1; hops *= 2) {  // output covers paths of up to `hops` edges
    square<<<blocks, threads>>>(output, tmp, N);
    cudaMemcpy(output, tmp, bytes, cudaMemcpyDeviceToDevice);
  }
  cudaDeviceSynchronize();
  cudaFree(tmp);
}
