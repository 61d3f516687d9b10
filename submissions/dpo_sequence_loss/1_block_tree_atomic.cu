// One thread per preference pair computes its loss softplus(-z) in the stable form max(x, 0) + log1p(exp(-|x|));
// each block of 256 sums its losses in a shared-memory tree and one thread adds the block's share of the mean into
// output with atomicAdd (output is set to 0 first: it holds garbage on entry).
#include <cuda_runtime.h>

#define THREADS 256

__device__ float pair_loss(float c, float r, float cr, float rr, float beta) {
  const float z = beta * ((c - r) - (cr - rr));
  const float x = -z;  // -log(sigmoid(z)) = softplus(-z)
  return fmaxf(x, 0.0f) + log1pf(expf(-fabsf(x)));
}

__global__ void dpo_blocks(const float* c, const float* r, const float* cr, const float* rr, float* output, float beta,
                           int B) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  partial[threadIdx.x] = i < B ? pair_loss(c[i], r[i], cr[i], rr[i], beta) : 0.0f;
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
