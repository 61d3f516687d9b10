// expect: runtime_error
// expect-message: cudaErrorMisalignedAddress
// Reads each row of the box as int4 vectors from input + r * M + S_COL, as if every row started on the 16-byte grid.
// That holds only when both M and S_COL are multiples of 4. The first tests have fewer than 4 columns in the box (no
// vectors); to_the_end_37x45 has 40 columns and M = 45: row 3 starts at element 140 (aligned), row 4 at 185 (not),
// and the misaligned 16-byte load is a CUDA error.
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__global__ void row_sums4(const int* input, int* output, int M, int S_ROW, int rows, int S_COL, int width) {
  __shared__ int warp_totals[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int sum = 0;
  for (int r = blockIdx.x * WARPS + warp; r < rows; r += gridDim.x * WARPS) {
    const int* row = input + (S_ROW + r) * M + S_COL;
    const int n4 = width / 4;
    for (int q = lane; q < n4; q += 32) {
      const int4 v = reinterpret_cast<const int4*>(row)[q];
      sum += v.x + v.y + v.z + v.w;
    }
    if (lane < width - 4 * n4) sum += row[4 * n4 + lane];
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

extern "C" void solve(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL, int E_COL) {
  const int rows = E_ROW - S_ROW + 1, width = E_COL - S_COL + 1;
  int blocks = (rows + WARPS - 1) / WARPS;
  if (blocks > 1024) blocks = 1024;
  cudaMemset(output, 0, sizeof(int));
  row_sums4<<<blocks, THREADS>>>(input, output, M, S_ROW, rows, S_COL, width);
  cudaDeviceSynchronize();
}
