// expect: wrong_answer
// expect-message: elements wrong
// Takes the min of the ratios and then multiplies by the advantage: min(r, clip(r)) * A. That equals
// min(r * A, clip(r) * A) only for A >= 0; for a negative advantage multiplying by A flips the order, and the
// pessimistic choice is the larger ratio. On the statement's example this gives -0.25642 instead of -0.17563.
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_GROUPS (256 * 32)  // B <= 256, G <= 32

__device__ float advantage[MAX_GROUPS];

__global__ void advantages_kernel(const float* rewards, int B, int G) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  const float* R = rewards + b * G;
  float mean = 0.0f;
  for (int g = 0; g < G; ++g) mean += R[g];
  mean /= G;
  float var = 0.0f;
  for (int g = 0; g < G; ++g) var += (R[g] - mean) * (R[g] - mean);
  const float std_dev = sqrtf(var / G);  // population: divide by G, not G - 1
  for (int g = 0; g < G; ++g) advantage[b * G + g] = (R[g] - mean) / (std_dev + 1e-8f);
}

__global__ void loss_kernel(const float* log_pi, const float* log_pi_old, const float* log_ref, float* output,
                            float clip_eps, float beta, int S, int n) {
  __shared__ float partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  float term = 0.0f;
  if (i < n) {
    const float A = advantage[i / S];  // every token of response (b, g) shares its advantage
    const float r = expf(log_pi[i] - log_pi_old[i]);
    const float clipped = fminf(fmaxf(r, 1.0f - clip_eps), 1.0f + clip_eps);
    const float surrogate = fminf(r, clipped) * A;
    const float d = log_ref[i] - log_pi[i];
    term = surrogate - beta * (expf(d) - d - 1.0f);
  }
  partial[threadIdx.x] = term;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, -partial[0] / n);
}

extern "C" void solve(const float* rewards, const float* log_pi, const float* log_pi_old, const float* log_ref,
                      float* output, float clip_eps, float beta, int B, int G, int S) {
  const int n = B * G * S;
  cudaMemset(output, 0, sizeof(float));
  advantages_kernel<<<(B + THREADS - 1) / THREADS, THREADS>>>(rewards, B, G);
  loss_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(log_pi, log_pi_old, log_ref, output, clip_eps, beta, S, n);
  cudaDeviceSynchronize();
}
