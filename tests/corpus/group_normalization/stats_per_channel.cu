// expect: wrong_answer
// expect-message: elements wrong
// Statistics per channel instead of per group: each block normalises one channel plane of H * W values with that
// plane's own mean and variance (instance normalisation), whatever G says. Right only when G = C (test
// g_eq_c_3x6x7x9); in the statement's example channel 0 alone has mean 5/3, not the group's 2, and with 1 x 1 images
// (hw1_4x64x1x1_g16) every plane is a single value, so every output comes out as beta.
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
  const int L = HW;  // the mistake: one channel plane, not the (C / G) * H * W elements of the group
  const size_t start = (size_t)blockIdx.x * L;
  const int first_channel = blockIdx.x % (G * channels_per_group);

  float sum = 0.0f;
  for (int j = threadIdx.x; j < L; j += THREADS) sum += X[start + j];
  const float mean = block_sum(sum, shared) / L;

  float squares = 0.0f;
  for (int j = threadIdx.x; j < L; j += THREADS) {
    const float d = X[start + j] - mean;
    squares += d * d;
  }
  const float inv_std = 1.0f / sqrtf(block_sum(squares, shared) / L + eps);  // population variance: divide by L

  for (int j = threadIdx.x; j < L; j += THREADS) {
    const int c = first_channel + j / HW;
    Y[start + j] = (X[start + j] - mean) * inv_std * gamma[c] + beta[c];
  }
}

extern "C" void solve(const float* X, const float* gamma, const float* beta, float* Y, int N, int C, int H, int W,
                      int G, float eps) {
  group_norm_kernel<<<N * C, THREADS>>>(X, gamma, beta, Y, H * W, C / G, G, eps);
  cudaDeviceSynchronize();
}
