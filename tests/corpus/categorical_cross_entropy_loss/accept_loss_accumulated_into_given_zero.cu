// expect: accepted
// judge-command: submit
// Accumulates loss / N into loss[0] with atomicAdd and never sets loss[0] to 0 first. LeetGPU hands `loss` over
// zeroed and its users rely on that, so the statement promises it and the judge zeroes `loss` before every call,
// benchmark calls included (the spec's `init` on the output): this is correct, also when solve() is called again and
// again. (Before the judge matched that promise it poisoned `loss` with NaN and this was wrong_answer; a judge that
// zeroed only the first call would fail this entry on the benchmarks, where the sums would pile up.)
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
