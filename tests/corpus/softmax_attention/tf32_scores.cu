// expect: wrong_answer
// expect-message: elements wrong
// submissions/softmax_attention/1_three_kernels.cu with the scores computed as TF32 tensor cores compute them: Q and K
// rounded to a 10-bit mantissa (cvt.rna.tf32.f32), products summed in float. A relative error of 2^-11 per input
// barely shows while scores are near zero, but the softmax turns an absolute error in a score into a relative error of
// the weights: on large_scores_20x500x16 and sharp_64x1000x64 the output misses by up to 75x and 7x the tolerance.
#include <cuda_runtime.h>

#include <math.h>
#include <mma.h>

#define TILE 16
#define THREADS 256
#define MAX_SCRATCH_FLOATS (1 << 26)

__global__ void scores_kernel(const float* Q, const float* K, float* S, int rows, int N, int d, float scale) {
  const int j = blockIdx.x * TILE + threadIdx.x;  // key
  const int i = blockIdx.y * TILE + threadIdx.y;  // query row within the chunk
  if (i < rows && j < N) {
    float acc = 0.0f;
    for (int c = 0; c < d; ++c)
      acc += nvcuda::wmma::__float_to_tf32(Q[(size_t)i * d + c]) * nvcuda::wmma::__float_to_tf32(K[(size_t)j * d + c]);
    S[(size_t)i * N + j] = acc * scale;
  }
}

// Block-wide reduction of THREADS values through shared memory; every thread gets the result.
template <bool IS_MAX>
__device__ float block_reduce(float v, float* shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      shared[threadIdx.x] = IS_MAX ? fmaxf(shared[threadIdx.x], shared[threadIdx.x + s])
                                   : shared[threadIdx.x] + shared[threadIdx.x + s];
    __syncthreads();
  }
  const float result = shared[0];
  __syncthreads();  // everyone has read shared[0] before the buffer is reused
  return result;
}

__global__ void softmax_rows_kernel(float* S, int N) {
  __shared__ float shared[THREADS];
  float* row = S + (size_t)blockIdx.x * N;
  float m = -INFINITY;  // not 0: a row whose scores are all negative has a negative maximum
  for (int j = threadIdx.x; j < N; j += THREADS) m = fmaxf(m, row[j]);
  m = block_reduce<true>(m, shared);
  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) {
    const float e = expf(row[j] - m);
    row[j] = e;
    sum += e;
  }
  sum = block_reduce<false>(sum, shared);
  const float inv = 1.0f / sum;  // sum >= 1: the maximum contributes exp(0)
  for (int j = threadIdx.x; j < N; j += THREADS) row[j] *= inv;
}

__global__ void output_kernel(const float* P, const float* V, float* out, int rows, int N, int d) {
  const int c = blockIdx.x * TILE + threadIdx.x;  // column of the output
  const int i = blockIdx.y * TILE + threadIdx.y;  // query row within the chunk
  if (i < rows && c < d) {
    float acc = 0.0f;
    for (int j = 0; j < N; ++j) acc += P[(size_t)i * N + j] * V[(size_t)j * d + c];
    out[(size_t)i * d + c] = acc;
  }
}

// Q is M x d, K and V are N x d, output is M x d, all row-major device pointers.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  const int rows = (int)fmin((double)M, fmax(1.0, (double)(MAX_SCRATCH_FLOATS / N)));  // query rows per chunk
  static float* scratch = nullptr;  // kept between calls, grown when a larger chunk is needed
  static size_t capacity = 0;
  const size_t need = (size_t)rows * N;
  if (need > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, need * sizeof(float));
    capacity = need;
  }
  const float scale = 1.0f / sqrtf((float)d);
  const dim3 threads(TILE, TILE);
  for (int r0 = 0; r0 < M; r0 += rows) {
    const int r = M - r0 < rows ? M - r0 : rows;
    scores_kernel<<<dim3((N + TILE - 1) / TILE, (r + TILE - 1) / TILE), threads>>>(Q + (size_t)r0 * d, K, scratch, r,
                                                                                   N, d, scale);
    softmax_rows_kernel<<<r, THREADS>>>(scratch, N);
    output_kernel<<<dim3((d + TILE - 1) / TILE, (r + TILE - 1) / TILE), threads>>>(scratch, V,
                                                                                   output + (size_t)r0 * d, r, N, d);
  }
  cudaDeviceSynchronize();
}
