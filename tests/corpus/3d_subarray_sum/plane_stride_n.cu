// expect: wrong_answer
// expect-message: elements wrong
// Steps from plane to plane by N * K instead of M * K: it takes N, the number of planes, for the number of rows in a
// plane. Where N == M it cannot be seen (n1x1x1 and example_2x2x3 pass); single_5x6x7 (N = 5, M = 6) already reads
// another element, and strides_7x11x13, whose values are fixed, gives 2,598 instead of 2,607 whatever the seed.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_sums(const int* input, int* output, int N, int K, int S_DEP, int S_ROW, int S_COL, int depth,
                           int rows, int width) {
  __shared__ int partial[THREADS];
  const long long i = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  int v = 0;
  if (i < static_cast<long long>(depth) * rows * width) {
    const int c = static_cast<int>(i % width);
    const long long plane_row = i / width;
    const int r = static_cast<int>(plane_row % rows);
    const int d = static_cast<int>(plane_row / rows);
    v = input[(static_cast<long long>(S_DEP + d) * N + (S_ROW + r)) * K + (S_COL + c)];  // should be * M
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
  const int depth = E_DEP - S_DEP + 1, rows = E_ROW - S_ROW + 1, width = E_COL - S_COL + 1;
  const long long count = static_cast<long long>(depth) * rows * width;
  cudaMemset(output, 0, sizeof(int));
  block_sums<<<static_cast<unsigned>((count + THREADS - 1) / THREADS), THREADS>>>(input, output, N, K, S_DEP, S_ROW,
                                                                                 S_COL, depth, rows, width);
  cudaDeviceSynchronize();
}
