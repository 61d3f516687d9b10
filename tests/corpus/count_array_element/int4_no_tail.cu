// expect: wrong_answer
// expect-message: elements wrong
// Reads the input as int4 but only the N / 4 whole chunks: when N is not a multiple of 4, the last N % 4 elements are
// never compared with K. n1_match (a single element, equal to K) already comes out 0 instead of 1; all_equal_4099
// would come out 4096.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void count_vec4(const int4* input, int* output, int n4, int K) {
  __shared__ int partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  int c = 0;
  if (i < n4) {
    const int4 v = input[i];
    c = (v.x == K) + (v.y == K) + (v.z == K) + (v.w == K);
  }
  partial[threadIdx.x] = c;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int K) {
  cudaMemset(output, 0, sizeof(int));
  const int n4 = N / 4;  // the mistake: elements 4 * n4 .. N - 1 are never read
  if (n4 > 0)
    count_vec4<<<(n4 + THREADS - 1) / THREADS, THREADS>>>(reinterpret_cast<const int4*>(input), output, n4, K);
  cudaDeviceSynchronize();
}
