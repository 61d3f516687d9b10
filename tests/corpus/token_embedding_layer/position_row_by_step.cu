// expect: wrong_answer
// expect-message: elements wrong
// Adds position row t (the step within the sequence) instead of row position_ids[t]. That is what BERT does when the
// ids are 0, 1, 2, ..., and LeetGPU's own example has them so, but the ids are an input and need not be: in
// example_1x2 they are [2, 0], so token 0 gets position row 0 instead of row 2 and its first output is 0.4472118
// instead of -0.999995. (With T > P this mistake would also read past the end of the position table.)
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

__global__ void embedding_layer_kernel(const int* token_ids, const int* position_ids, const float* token_embeddings,
                                       const float* position_embeddings, const float* gamma, const float* beta,
                                       float* output, int T, int D, float eps) {
  __shared__ float shared[THREADS];
  const int row = blockIdx.x;
  const float* tok = token_embeddings + (size_t)token_ids[row] * D;
  const float* pos = position_embeddings + (size_t)(row % T) * D;  // the mistake: row t, not position_ids[t]
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
