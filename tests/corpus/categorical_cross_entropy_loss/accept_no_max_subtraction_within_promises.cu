// expect: accepted
// expect-stress-failed: large_logits_80_100
// expect-stress-failed: very_negative_logits
// log(sum exp(x)) without subtracting the row's maximum, as many LeetGPU answers do. LeetGPU promises logits in
// [-10, 10], where exp never overflows, so this is a correct solution of the problem as stated and is accepted: the
// two stress cases past that range (large_logits_80_100, very_negative_logits) fail, are reported apart, and decide
// nothing. no_max_subtraction.cu is the same code under --strict, where they do.
#include <cuda_runtime.h>
#include <math.h>
__global__ void cross_entropy(const float* logits, const int* labels, float* loss, int N, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const float* row = logits + (size_t)i * C;
  float s = 0.0f;
  for (int j = 0; j < C; ++j) s += expf(row[j]);
  atomicAdd(loss, (logf(s) - row[labels[i]]) / N);
}
extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
  cudaMemset(loss, 0, sizeof(float));
  cross_entropy<<<(N + 255) / 256, 256>>>(logits, true_labels, loss, N, C);
  cudaDeviceSynchronize();
}
