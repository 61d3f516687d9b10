// expect: wrong_answer
// expect-message: elements wrong
// z taken as beta times the policy margin alone, forgetting to subtract the reference policy's margin: that is a
// reward against nothing, not DPO. The statement's example (example_4) already gives 0.6984369 instead of 0.7641063,
// and in long_rejected_1000, where a policy margin of about 725 is cancelled by an equal reference margin, every z is
// near 72 and the loss collapses to about 0 instead of 1.78.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dpo_blocks(const float* c, const float* r, const float* cr, const float* rr, float* output, float beta,
                           int B) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float loss = 0.0f;
  if (i < B) {
    const float z = beta * (c[i] - r[i]);  // the reference margin cr[i] - rr[i] is missing
    const float x = -z;
    loss = fmaxf(x, 0.0f) + log1pf(expf(-fabsf(x)));
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
