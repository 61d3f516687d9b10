// Rung 1: one thread per rotated pair. Thread p takes row r = p / h and k = p % h (h = D / 2), reads Q[k] and its
// partner Q[k + h] with their table entries, and writes both outputs: output[k] = Q[k] cos - Q[k + h] sin, output[k + h]
// = Q[k + h] cos + Q[k] sin. Consecutive threads read consecutive elements of each half, so every load is coalesced.
#include <cuda_runtime.h>

__global__ void rope_kernel(const float* Q, const float* cos, const float* sin, float* output, int M, int D) {
  const int h = D / 2;
  const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= (long long)M * h) return;
  const long long r = p / h;
  const long long lo = r * D + (p - r * h);  // element k of row r
  const long long hi = lo + h;               // its partner k + h
  const float x1 = Q[lo], x2 = Q[hi];
  output[lo] = x1 * cos[lo] - x2 * sin[lo];
  output[hi] = x2 * cos[hi] + x1 * sin[hi];
}

extern "C" void solve(float* Q, float* cos, float* sin, float* output, int M, int D) {
  const long long pairs = (long long)M * (D / 2);
  const int threads = 256;
  const int blocks = (int)((pairs + threads - 1) / threads);
  rope_kernel<<<blocks, threads>>>(Q, cos, sin, output, M, D);
  cudaDeviceSynchronize();
}
