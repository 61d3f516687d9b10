#include <cuda_runtime.h>

// One block per row is a natural start: the block's threads share the row's sum of squares.
__global__ void fused_add_rms_norm_kernel(const float* x, const float* residual, const float* weight, float* out,
                                          int N, int C, float eps) {
  // TODO: row blockIdx.x: z[j] = x[j] + residual[j], the mean of z[j]^2 over the row (divide by C), then
  // out[j] = z[j] / sqrt(mean + eps) * weight[j]. Only out is written.
}

// x, residual, weight and out point to GPU memory. x, residual and out are N x C, row-major; weight holds C.
extern "C" void solve(const float* x, const float* residual, const float* weight, float* out, int N, int C,
                      float eps) {
  const int threads_per_block = 256;
  fused_add_rms_norm_kernel<<<N, threads_per_block>>>(x, residual, weight, out, N, C, eps);
  cudaDeviceSynchronize();
}
