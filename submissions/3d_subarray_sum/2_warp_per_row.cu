// Rung 2: one warp per row of the box (depth x rows of them) instead of one thread per element: no division per
// element, only one per row to find its plane. The 32 lanes read the row's columns side by side (coalesced), four
// loads in flight per lane, and keep the sum in a register across rows (a grid-stride loop over rows, with a grid
// just large enough to fill the GPU); warp shuffles and one atomicAdd per block replace rung 1's shared-memory tree.
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // complete in lane 0
}

__global__ void row_sums(const int* input, int* output, int M, int K, int S_DEP, int S_ROW, int S_COL, int rows,
                         int box_rows, int width) {
  __shared__ int warp_totals[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int sum = 0;
  for (int row = blockIdx.x * WARPS + warp; row < box_rows; row += gridDim.x * WARPS) {
    const int d = row / rows, r = row - d * rows;
    const int* p = input + (static_cast<size_t>(S_DEP + d) * M + (S_ROW + r)) * K + S_COL;
    int c = lane;
    for (; c + 96 < width; c += 128) sum += p[c] + p[c + 32] + p[c + 64] + p[c + 96];
    for (; c < width; c += 32) sum += p[c];
  }
  sum = warp_sum(sum);
  if (lane == 0) warp_totals[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = warp_sum(lane < WARPS ? warp_totals[lane] : 0);
    if (lane == 0) atomicAdd(output, sum);
  }
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const int rows = E_ROW - S_ROW + 1, width = E_COL - S_COL + 1;
  const int box_rows = (E_DEP - S_DEP + 1) * rows;  // at most 250,000
  int blocks = (box_rows + WARPS - 1) / WARPS;
  if (blocks > sms * 8) blocks = sms * 8;
  cudaMemset(output, 0, sizeof(int));
  row_sums<<<blocks, THREADS>>>(input, output, M, K, S_DEP, S_ROW, S_COL, rows, box_rows, width);
  cudaDeviceSynchronize();
}
