// Rung 1: a 3D grid, one thread per element: x runs along a row (32 threads, so a warp reads 32 consecutive ints),
// y over 8 rows, z over the N planes. Thread (i, j, k) writes a 1 where input[(i * M + j) * K + k] == P and a 0
// elsewhere (and outside the array). Each block adds up its 256 values in shared memory, and thread 0 adds the
// block's count to output with atomicAdd. output is set to zero first: its contents on entry are garbage.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

__global__ void count_tiles(const int* input, int* output, int N, int M, int K, int P) {
  __shared__ int partial[BX * BY];
  const int k = blockIdx.x * BX + threadIdx.x;
  const int j = blockIdx.y * BY + threadIdx.y;
  const int i = blockIdx.z;  // one plane per grid layer: gridDim.z = N <= 1000
  const int t = threadIdx.y * BX + threadIdx.x;
  // A plane is M * K ints, a row K; N * M * K <= 10^9 fits an int.
  partial[t] = (j < M && k < K && input[(i * M + j) * K + k] == P) ? 1 : 0;
  __syncthreads();
  for (int stride = BX * BY / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0 && partial[0] > 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
  cudaMemset(output, 0, sizeof(int));
  const dim3 threads(BX, BY, 1);
  const dim3 blocks((K + BX - 1) / BX, (M + BY - 1) / BY, N);
  count_tiles<<<blocks, threads>>>(input, output, N, M, K, P);
  cudaDeviceSynchronize();
}
