// expect: wrong_answer
// expect-message: elements wrong
// The variance in one pass as E[x^2] - E[x]^2, both sums in float32. Fine while the mean is small next to the spread,
// but in test large_mean_2x32x8x8_g8 (values in [95, 100)) E[x^2] is 9508.3 and E[x]^2 is 9506.3: the subtraction
// keeps the rounding errors of the two float sums and drops most of the true variance's digits, and outputs miss the
// tolerance by several times. Two passes (mean first, then the squared deviations), Welford's update, or these sums in
// double pass.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256  // a power of two, for the tree

// Sum of v over the block; every thread gets the result. Every thread must call it (it holds barriers).
__device__ float block_sum(float v, float* shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  const float total = shared[0];
  __syncthreads();  // everyone has read shared[0] before the next call overwrites it
  return total;
}

__global__ void group_norm_kernel(const float* X, const float* gamma, const float* beta, float* Y, int HW,
                                  int channels_per_group, int G, float eps) {
  __shared__ float shared[THREADS];
  const int L = channels_per_group * HW;  // elements in the group
  const size_t start = (size_t)blockIdx.x * L;  // group g of image n is group n * G + g in memory order
  const int first_channel = (blockIdx.x % G) * channels_per_group;

  float sum = 0.0f, squares = 0.0f;
  for (int j = threadIdx.x; j < L; j += THREADS) {
    const float v = X[start + j];
    sum += v;
    squares += v * v;
  }
  const float mean = block_sum(sum, shared) / L;
  const float variance = block_sum(squares, shared) / L - mean * mean;  // the mistake: cancels when |mean| >> spread
  const float inv_std = 1.0f / sqrtf(fmaxf(variance, 0.0f) + eps);

  for (int j = threadIdx.x; j < L; j += THREADS) {
    const int c = first_channel + j / HW;
    Y[start + j] = (X[start + j] - mean) * inv_std * gamma[c] + beta[c];
  }
}

extern "C" void solve(const float* X, const float* gamma, const float* beta, float* Y, int N, int C, int H, int W,
                      int G, float eps) {
  group_norm_kernel<<<N * G, THREADS>>>(X, gamma, beta, Y, H * W, C / G, G, eps);
  cudaDeviceSynchronize();
}
