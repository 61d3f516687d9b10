// expect: wrong_answer
// expect-message: elements wrong
// The statistics loop assumes the row length is a multiple of the block size: each of the 256 threads adds
// C / 256 elements (k * 256 + tid), so the last C % 256 elements of every row are left out of the mean and the
// variance. With C < 256 (1x1, example_2x4, 3x33, 5x255) the sums are empty and every row is normalised with mean 0
// and variance 0; at C = 257 one element in 257 is missed. The output loop is right, so every element is written:
// the mistake shows as wrong values, not as unwritten ones.
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
  const int per_thread = C / THREADS;  // the mistake: drops the C % THREADS tail
  float sum = 0.0f;
  for (int k = 0; k < per_thread; ++k) sum += x[k * THREADS + threadIdx.x];
  const float mean = block_sum(sum, shared) / C;
  float squares = 0.0f;
  for (int k = 0; k < per_thread; ++k) {
    const float d = x[k * THREADS + threadIdx.x] - mean;
    squares += d * d;
  }
  const float inv_std = 1.0f / sqrtf(block_sum(squares, shared) / C + eps);
  for (int j = threadIdx.x; j < C; j += THREADS) y[j] = (x[j] - mean) * inv_std * weight[j] + bias[j];
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int N, int C,
                      float eps) {
  layer_norm_kernel<<<N, THREADS>>>(input, weight, bias, output, C, eps);
  cudaDeviceSynchronize();
}
