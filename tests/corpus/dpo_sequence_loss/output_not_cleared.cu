// expect: wrong_answer
// expect-message: NaN
// Adds every block's share of the mean into output with atomicAdd, but never sets output to 0 first: the judge fills
// outputs with a NaN pattern before each call, NaN + anything is NaN, and NaN never passes where the reference is
// finite. Caught by the first case; cudaMemset(output, 0, sizeof(float)) before the launch fixes it.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dpo_blocks(const float* c, const float* r, const float* cr, const float* rr, float* output, float beta,
                           int B) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float loss = 0.0f;
  if (i < B) {
    const float z = beta * ((c[i] - r[i]) - (cr[i] - rr[i]));
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
  dpo_blocks<<<(B + THREADS - 1) / THREADS, THREADS>>>(chosen_logps, rejected_logps, chosen_ref_logps,
                                                      rejected_ref_logps, output, beta, B);
  cudaDeviceSynchronize();
}
