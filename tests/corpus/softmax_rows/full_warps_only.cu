// expect: wrong_answer
// expect-message: elements wrong
// A warp per row whose maximum and sum loops cover only the full 32-element chunks of the row (j < N / 32 * 32):
// written for row lengths that are multiples of 32. The output loop does cover the whole row, so every element is
// written, but the statistics miss the last N % 32 elements: with N < 32 (1x1, example_2x4) they are empty (maximum
// -inf, sum 0) and the outputs are inf; in dominant_tail_5x34 the maximum misses the 100 and exp(100) overflows.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__global__ void softmax_rows_kernel(const float* input, float* output, int M, int N) {
  const int lane = threadIdx.x % 32;
  const long long row = (long long)blockIdx.x * WARPS + threadIdx.x / 32;
  if (row >= M) return;
  const float* x = input + row * N;
  float* y = output + row * N;
  const int full = N / 32 * 32;  // the mistake: the tail of the row is left out of the statistics
  float m = -INFINITY;
  for (int j = lane; j < full; j += 32) m = fmaxf(m, x[j]);
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  float sum = 0.0f;
  for (int j = lane; j < full; j += 32) sum += expf(x[j] - m);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  for (int j = lane; j < N; j += 32) y[j] = expf(x[j] - m) / sum;
}

extern "C" void solve(const float* input, float* output, int M, int N) {
  softmax_rows_kernel<<<(M + WARPS - 1) / WARPS, THREADS>>>(input, output, M, N);
  cudaDeviceSynchronize();
}
