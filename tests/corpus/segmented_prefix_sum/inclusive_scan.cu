// expect: wrong_answer
// expect-message: elements wrong
// An INCLUSIVE segmented scan: each thread that owns a segment adds the value before writing, so output[i] includes
// values[i] itself and a segment's first output is its first value instead of 0. Everything else is right (segments
// found from the flags, sums restarted at each flag). The example test shows it at once: [1, 3, 6, 4, 9, 6] instead
// of [0, 1, 3, 0, 4, 0]; n1 gives 5 instead of 0.
#include <cuda_runtime.h>

__global__ void scan_segments(const float* values, const int* flags, float* output, int N) {
  const int start = blockIdx.x * blockDim.x + threadIdx.x;
  if (start >= N || flags[start] == 0) return;
  float sum = 0.0f;
  for (int i = start; i < N && (i == start || flags[i] == 0); ++i) {
    sum += values[i];
    output[i] = sum;
  }
}

extern "C" void solve(const float* values, const int* flags, float* output, int N) {
  const int threads = 256;
  scan_segments<<<(N + threads - 1) / threads, threads>>>(values, flags, output, N);
  cudaDeviceSynchronize();
}
