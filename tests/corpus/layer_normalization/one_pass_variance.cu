// expect: wrong_answer
// expect-message: elements wrong
// The variance in one pass as E[x^2] - E[x]^2, both sums in float32. Fine while the mean is small next to the spread,
// but in test large_mean (values in [95, 100)) E[x^2] is 9508.3 and E[x]^2 is 9506.3: the subtraction keeps the
// rounding errors of the two float sums (about 1e-3 each) and drops most of the true variance's digits, and outputs
// miss the tolerance by several times. The nearly constant rows of test 65536x3 cancel the same way (there it is
// the variance's error next to eps). Two passes (mean first, then the squared deviations), Welford's update, or
// these sums in double pass.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__device__ float block_sum(float v, float* shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  const float total = shared[0];
  __syncthreads();
  return total;
}

__global__ void layer_norm_kernel(const float* input, const float* weight, const float* bias, float* output, int C,
                                  float eps) {
  __shared__ float shared[THREADS];
  const float* x = input + (size_t)blockIdx.x * C;
  float* y = output + (size_t)blockIdx.x * C;
  float sum = 0.0f, sum_squares = 0.0f;
  for (int j = threadIdx.x; j < C; j += THREADS) {
    sum += x[j];
    sum_squares += x[j] * x[j];
  }
  const float mean = block_sum(sum, shared) / C;
  const float variance = fmaxf(block_sum(sum_squares, shared) / C - mean * mean, 0.0f);  // cancels
  const float inv_std = 1.0f / sqrtf(variance + eps);
  for (int j = threadIdx.x; j < C; j += THREADS) y[j] = (x[j] - mean) * inv_std * weight[j] + bias[j];
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int N, int C,
                      float eps) {
  layer_norm_kernel<<<N, THREADS>>>(input, weight, bias, output, C, eps);
  cudaDeviceSynchronize();
}
