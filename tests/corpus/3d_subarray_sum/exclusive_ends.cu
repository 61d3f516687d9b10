// expect: wrong_answer
// expect-message: elements wrong
// Reads the three end indices as exclusive, as in Python's input[S_DEP:E_DEP, S_ROW:E_ROW, S_COL:E_COL]: the last
// plane, row and column of the box are never added. On n1x1x1 the box is empty and 0 is written instead of 7;
// example_2x2x3 gives 0 instead of 7 (E_ROW == S_ROW), strides_7x11x13 1,727 instead of 2,607.
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__global__ void row_sums(const int* input, int* output, int M, int K, int S_DEP, int S_ROW, int S_COL, int rows,
                         int box_rows, int width) {
  __shared__ int warp_totals[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int sum = 0;
  for (int row = blockIdx.x * WARPS + warp; row < box_rows; row += gridDim.x * WARPS) {
    const int d = row / rows, r = row - d * rows;
    const int* p = input + (static_cast<size_t>(S_DEP + d) * M + (S_ROW + r)) * K + S_COL;
    for (int c = lane; c < width; c += 32) sum += p[c];
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) warp_totals[warp] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < WARPS; ++w) total += warp_totals[w];
    atomicAdd(output, total);
  }
}

extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
  const int rows = E_ROW - S_ROW, width = E_COL - S_COL;  // should be + 1 each
  const int box_rows = (E_DEP - S_DEP) * rows;
  int blocks = (box_rows + WARPS - 1) / WARPS;
  if (blocks < 1) blocks = 1;
  if (blocks > 1024) blocks = 1024;
  cudaMemset(output, 0, sizeof(int));
  row_sums<<<blocks, THREADS>>>(input, output, M, K, S_DEP, S_ROW, S_COL, rows > 0 ? rows : 1, box_rows, width);
  cudaDeviceSynchronize();
}
