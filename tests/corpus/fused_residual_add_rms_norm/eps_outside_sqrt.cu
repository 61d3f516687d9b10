// expect: wrong_answer
// expect-message: elements wrong
// eps added after the square root: out = z / (sqrt(mean(z^2)) + eps) * weight instead of z / sqrt(mean(z^2) + eps).
// Where the mean square is large next to eps the two differ by less than the tolerance (1e-5 / rms relative), and
// with z = 0 (test zero_sum) both give 0; but in test tiny_values the mean square is about 1.7e-5, next to
// eps = 1e-5, and every output comes out about 26% too large.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__global__ void fused_add_rms_norm_kernel(const float* x, const float* residual, const float* weight, float* out,
                                          int C, float eps) {
  __shared__ float partial[THREADS];
  const size_t base = (size_t)blockIdx.x * C;
  float squares = 0.0f;
  for (int j = threadIdx.x; j < C; j += THREADS) {
    const float z = x[base + j] + residual[base + j];
    squares += z * z;
  }
  partial[threadIdx.x] = squares;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  const float inv_rms = 1.0f / (sqrtf(partial[0] / C) + eps);  // the mistake: eps belongs inside the sqrt
  for (int j = threadIdx.x; j < C; j += THREADS) {
    const float z = x[base + j] + residual[base + j];
    out[base + j] = z * inv_rms * weight[j];
  }
}

extern "C" void solve(const float* x, const float* residual, const float* weight, float* out, int N, int C,
                      float eps) {
  fused_add_rms_norm_kernel<<<N, THREADS>>>(x, residual, weight, out, C, eps);
  cudaDeviceSynchronize();
}
