// expect: wrong_answer
// expect-message: NaN
// Accumulates loss / N into loss[0] with atomicAdd but never sets loss[0] to 0 first, so the sum starts from whatever
// the buffer held. The judge fills outputs with a NaN pattern before each call: NaN + anything is NaN. (Without the
// poison, the previous call's result would be added in, and the error would only show from the second call on.)
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
  atomicAdd(loss, (m + logf(s) - row[labels[i]]) / N);
}
extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
  cross_entropy<<<(N + 255) / 256, 256>>>(logits, true_labels, loss, N, C);
  cudaDeviceSynchronize();
}
