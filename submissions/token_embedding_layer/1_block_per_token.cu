// Rung 1: one block of 256 threads per token, three sweeps over the token's D features: the mean of
// s = token row + position row (a shared-memory tree), then the sum of squared deviations from that mean (the two-pass
// variance), then the output. The two rows are gathered from global memory in each sweep; every loop strides by the
// block size and stops at D.
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

__global__ void embedding_layer_kernel(const int* token_ids, const int* position_ids, const float* token_embeddings,
                                       const float* position_embeddings, const float* gamma, const float* beta,
                                       float* output, int T, int D, float eps) {
  __shared__ float shared[THREADS];
  const int row = blockIdx.x;  // token b * T + t
  const float* tok = token_embeddings + (size_t)token_ids[row] * D;
  const float* pos = position_embeddings + (size_t)position_ids[row % T] * D;  // position_ids has T entries
  float* y = output + (size_t)row * D;

  float sum = 0.0f;
  for (int j = threadIdx.x; j < D; j += THREADS) sum += tok[j] + pos[j];
  const float mean = block_sum(sum, shared) / D;

  float squares = 0.0f;
  for (int j = threadIdx.x; j < D; j += THREADS) {
    const float d = tok[j] + pos[j] - mean;
    squares += d * d;
  }
  const float inv_std = 1.0f / sqrtf(block_sum(squares, shared) / D + eps);

  for (int j = threadIdx.x; j < D; j += THREADS) y[j] = (tok[j] + pos[j] - mean) * inv_std * gamma[j] + beta[j];
}

extern "C" void solve(const int* token_ids, const int* position_ids, const float* token_embeddings,
                      const float* position_embeddings, const float* gamma, const float* beta,
                      float* output, int B, int T, int V, int P, int D, float eps) {
  embedding_layer_kernel<<<B * T, THREADS>>>(token_ids, position_ids, token_embeddings, position_embeddings, gamma,
                                             beta, output, T, D, eps);
  cudaDeviceSynchronize();
}
