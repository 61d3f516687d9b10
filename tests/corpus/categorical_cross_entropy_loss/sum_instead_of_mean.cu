// expect: wrong_answer
// expect-message: elements wrong
// Adds up the per-sample losses but never divides by N: the result is N times the mean. Only N = 1 hides it; the
// statement's example (N = 2) gives 0.5596 instead of 0.2798.
#include <cuda_runtime.h>
#include <math.h>
__global__ void cross_entropy(const float* logits, const int* labels, float* loss, int N, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const float* row = logits + (size_t)i * C;
  float m = -INFINITY;
  for (int j = 0; j < C; ++j) m = fmaxf(m, row[j]);
  float s = 0.0f;
  for (int j = 0; j < C; ++j) s += expf(row[j] - m);
  atomicAdd(loss, m + logf(s) - row[labels[i]]);  // should be divided by N
}
extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
  cudaMemset(loss, 0, sizeof(float));
  cross_entropy<<<(N + 255) / 256, 256>>>(logits, true_labels, loss, N, C);
  cudaDeviceSynchronize();
}
