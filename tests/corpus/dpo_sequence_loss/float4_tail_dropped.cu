// expect: wrong_answer
// expect-message: elements wrong
// Reads the arrays as float4, one thread per four pairs, but loops only over the B / 4 whole vectors and forgets the
// B % 4 pairs of the tail, while still dividing by B. With B = 1 (b1_zero_logit) there is no whole vector at all and
// the output is 0 instead of ln 2; constant_1023 (0.9971 * ln 2) catches it again.
#include <cuda_runtime.h>

#define THREADS 256

__device__ float pair_loss(float c, float r, float cr, float rr, float beta) {
  const float x = -beta * ((c - r) - (cr - rr));
  return fmaxf(x, 0.0f) + log1pf(expf(-fabsf(x)));
}

__global__ void dpo_quads(const float4* c, const float4* r, const float4* cr, const float4* rr, float* output,
                          float beta, int B) {
  __shared__ float partial[THREADS];
  const int q = blockIdx.x * THREADS + threadIdx.x;
  float loss = 0.0f;
  if (q < B / 4) {
    const float4 a = c[q], b = r[q], ac = cr[q], bc = rr[q];
    loss = pair_loss(a.x, b.x, ac.x, bc.x, beta) + pair_loss(a.y, b.y, ac.y, bc.y, beta) +
           pair_loss(a.z, b.z, ac.z, bc.z, beta) + pair_loss(a.w, b.w, ac.w, bc.w, beta);
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
  const int quads = B / 4;
  const int blocks = quads > 0 ? (quads + THREADS - 1) / THREADS : 1;
  dpo_quads<<<blocks, THREADS>>>(reinterpret_cast<const float4*>(chosen_logps),
                                 reinterpret_cast<const float4*>(rejected_logps),
                                 reinterpret_cast<const float4*>(chosen_ref_logps),
                                 reinterpret_cast<const float4*>(rejected_ref_logps), output, beta, B);
  cudaDeviceSynchronize();
}
