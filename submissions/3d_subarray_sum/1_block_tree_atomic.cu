// Rung 1: one thread per element of the box, numbered 0 .. count - 1 along the columns, then the rows, then the
// depths, and turned back into (d, r, c) with a division and a remainder per axis; all six bounds are included. A
// 256-element tree in shared memory per block, and one atomicAdd per block into output, which is zeroed first.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_sums(const int* input, int* output, int M, int K, int S_DEP, int S_ROW, int S_COL, int depth,
                           int rows, int width) {
  __shared__ int partial[THREADS];
  const long long i = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  int v = 0;
  if (i < static_cast<long long>(depth) * rows * width) {
    const int c = static_cast<int>(i % width);
    const long long plane_row = i / width;
    const int r = static_cast<int>(plane_row % rows);
    const int d = static_cast<int>(plane_row / rows);
    // Plane stride M * K, row stride K.
    v = input[(static_cast<long long>(S_DEP + d) * M + (S_ROW + r)) * K + (S_COL + c)];
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
  const int depth = E_DEP - S_DEP + 1, rows = E_ROW - S_ROW + 1, width = E_COL - S_COL + 1;
  const long long count = static_cast<long long>(depth) * rows * width;
  cudaMemset(output, 0, sizeof(int));
  block_sums<<<static_cast<unsigned>((count + THREADS - 1) / THREADS), THREADS>>>(input, output, M, K, S_DEP, S_ROW,
                                                                                 S_COL, depth, rows, width);
  cudaDeviceSynchronize();
}
