// expect: wrong_answer
// expect-message: NaN
// Subtracts one maximum, taken over the whole matrix, from every row, as a 1-D softmax kernel would if reused for a
// matrix. Enough to prevent overflow, and right whenever the rows have similar maxima (the first tests), but in test
// row_scales the matrix maximum is 100 while the third row lies near -1000: every exp(x - 100) of that row underflows
// to 0 and its outputs are 0 / 0 = NaN. Each row needs its own maximum.
#include <cuda_runtime.h>

#include <math.h>

#define THREADS 256

__device__ float g_max;

// atomicMax for floats (see submissions/softmax/1_three_pass.cu): non-negative floats order like their bits as
// signed ints, negative ones in reverse as unsigned ints.
__device__ void atomic_max_float(float* addr, float v) {
  if (__float_as_int(v) >= 0)
    atomicMax(reinterpret_cast<int*>(addr), __float_as_int(v));
  else
    atomicMin(reinterpret_cast<unsigned int*>(addr), __float_as_uint(v));
}

__global__ void matrix_max_kernel(const float* input, long long count) {
  for (long long i = (long long)blockIdx.x * THREADS + threadIdx.x; i < count; i += (long long)gridDim.x * THREADS)
    atomic_max_float(&g_max, input[i]);
}

__global__ void softmax_rows_kernel(const float* input, float* output, int N) {
  __shared__ float shared[THREADS];
  const float* x = input + (size_t)blockIdx.x * N;
  float* y = output + (size_t)blockIdx.x * N;
  const float m = g_max;  // the mistake: the matrix's maximum, not this row's
  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += THREADS) sum += expf(x[j] - m);
  shared[threadIdx.x] = sum;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  const float total = shared[0];
  for (int j = threadIdx.x; j < N; j += THREADS) y[j] = expf(x[j] - m) / total;
}

extern "C" void solve(const float* input, float* output, int M, int N) {
  const float neg_inf = -INFINITY;
  cudaMemcpyToSymbol(g_max, &neg_inf, sizeof(float));
  matrix_max_kernel<<<1024, THREADS>>>(input, (long long)M * N);
  softmax_rows_kernel<<<M, THREADS>>>(input, output, N);
  cudaDeviceSynchronize();
}
