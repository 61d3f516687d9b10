// expect: wrong_answer
// expect-message: NaN/Inf
// log(sum exp(x)) computed as written, without subtracting the row's maximum first. Fine for small logits; on
// large_logits_80_100 expf(x) overflows to inf for x > 88.7 and the loss is inf (and -inf on very_negative_logits,
// where every expf underflows to 0 and log(0) = -inf).
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
