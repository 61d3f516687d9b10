// expect: wrong_answer
// expect-message: elements wrong
// Steps from plane to plane by N * M instead of M * K (a plane of a row-major N x M x K array holds M rows of K
// elements). Cubes hide it (n1x1x1_match passes); example_2x2x3 (N = M = 2, K = 3, P = 1) puts plane 1 at element 4
// instead of 6, reads input[4] and input[5] twice and input[10], input[11] never, and counts 6 instead of 5. (Deeper
// arrays also read past the end; the first wrong case decides the verdict.)
#include <cuda_runtime.h>

#define BX 32
#define BY 8

__global__ void count_tiles(const int* input, int* output, int N, int M, int K, int P) {
  __shared__ int partial[BX * BY];
  const int k = blockIdx.x * BX + threadIdx.x;
  const int j = blockIdx.y * BY + threadIdx.y;
  const int i = blockIdx.z;
  const int t = threadIdx.y * BX + threadIdx.x;
  partial[t] = (j < M && k < K && input[i * N * M + j * K + k] == P) ? 1 : 0;  // the mistake: i * N * M
  __syncthreads();
  for (int stride = BX * BY / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0 && partial[0] > 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
  cudaMemset(output, 0, sizeof(int));
  const dim3 blocks((K + BX - 1) / BX, (M + BY - 1) / BY, N);
  count_tiles<<<blocks, dim3(BX, BY, 1)>>>(input, output, N, M, K, P);
  cudaDeviceSynchronize();
}
