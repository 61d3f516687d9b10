// expect: wrong_answer
// expect-message: NaN/Inf
// judge-args: --strict
// log(sum exp(x)) computed as written, without subtracting the row's maximum first. Within the statement's logits
// range, [-10, 10], that is correct (accept_no_max_subtraction_within_promises.cu is the same code, accepted); past
// it, on the stress case large_logits_80_100, expf(x) overflows to inf for x > 88.7 and the loss is inf (and -inf on
// very_negative_logits, where every expf underflows to 0 and log(0) = -inf). --strict makes stress cases decide.
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
