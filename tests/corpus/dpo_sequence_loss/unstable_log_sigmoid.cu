// expect: wrong_answer
// expect-message: NaN/Inf where the reference is finite
// The loss written straight from its definition, -log(sigmoid(z)) = -log(1 / (1 + exp(-z))). Exact in real
// arithmetic and accurate in float while exp(-z) is finite, but for z < -88.7 expf(-z) overflows to inf, the sigmoid
// rounds to 0 and its log is -inf: the loss is +inf where the answer is -z. The case large_logits_6 (z = -200)
// catches it; write it as softplus(-z) = max(-z, 0) + log1p(exp(-|z|)).
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dpo_blocks(const float* c, const float* r, const float* cr, const float* rr, float* output, float beta,
                           int B) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float loss = 0.0f;
  if (i < B) {
    const float z = beta * ((c[i] - r[i]) - (cr[i] - rr[i]));
    loss = -logf(1.0f / (1.0f + expf(-z)));
  }
  partial[threadIdx.x] = loss;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0] / B);
}

extern "C" void solve(const float* chosen_logps, const float* rejected_logps,
                      const float* chosen_ref_logps, const float* rejected_ref_logps, float* output,
                      float beta, int B) {
  cudaMemset(output, 0, sizeof(float));
  dpo_blocks<<<(B + THREADS - 1) / THREADS, THREADS>>>(chosen_logps, rejected_logps, chosen_ref_logps,
                                                      rejected_ref_logps, output, beta, B);
  cudaDeviceSynchronize();
}
