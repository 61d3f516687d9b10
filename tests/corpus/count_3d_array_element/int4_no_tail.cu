// expect: wrong_answer
// expect-message: elements wrong
// Reads the array as int4 but only the (N * M * K) / 4 whole vectors: when N * M * K is not a multiple of 4, the last
// (N * M * K) % 4 elements are never compared with P. n1x1x1_match (one element, equal to P) already comes out 0
// instead of 1; all_equal_5x7x9 would come out 312 instead of 315.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void count_vec4(const int4* input, int* output, int n4, int P) {
  __shared__ int partial[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  int c = 0;
  if (i < n4) {
    const int4 v = input[i];
    c = (v.x == P) + (v.y == P) + (v.z == P) + (v.w == P);
  }
  partial[threadIdx.x] = c;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
  cudaMemset(output, 0, sizeof(int));
  const int n4 = N * M * K / 4;  // the mistake: elements 4 * n4 .. N * M * K - 1 are never read
  if (n4 > 0)
    count_vec4<<<(n4 + THREADS - 1) / THREADS, THREADS>>>(reinterpret_cast<const int4*>(input), output, n4, P);
  cudaDeviceSynchronize();
}
