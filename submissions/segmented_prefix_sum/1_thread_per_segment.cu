// Rung 1: one thread per segment. Thread i does nothing unless flags[i] = 1; then it walks its segment from i up to
// the next flag (or N), writing the running sum before adding each value: a plain sequential exclusive scan. Simple
// and correct, but the work is as unbalanced as the segments (one long segment is one thread's serial loop) and a
// warp's 32 threads read 32 far-apart places at once.
#include <cuda_runtime.h>

__global__ void scan_segments(const float* values, const int* flags, float* output, int N) {
  const int start = blockIdx.x * blockDim.x + threadIdx.x;
  if (start >= N || flags[start] == 0) return;
  float sum = 0.0f;
  output[start] = 0.0f;
  sum += values[start];
  for (int i = start + 1; i < N && flags[i] == 0; ++i) {
    output[i] = sum;
    sum += values[i];
  }
}

// values, flags and output point to GPU memory.
extern "C" void solve(const float* values, const int* flags, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  scan_segments<<<blocks, threads>>>(values, flags, output, N);
  cudaDeviceSynchronize();
}
