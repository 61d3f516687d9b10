// expect: wrong_answer
// judge-command: submit
// Does the whole transpose for the first 3 calls with the same buffers (the tests, and the warm-up it expects the
// judge to check), then only the first tile row: a sliver of token work, so the timer still sees a kernel, and an
// impressive time. `judge submit` poisons the output before every call and checks every call, so the unwritten rest
// is caught: `wrong_answer` ("never written"). It is not `output_not_written`, because part of the output is written.
#include <cuda_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8

__global__ void transpose(const float* input, float* output, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = input[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) output[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  static const float* last_input = nullptr;
  static float* last_output = nullptr;
  static int last_rows = -1, last_cols = -1, calls = 0;
  if (input == last_input && output == last_output && rows == last_rows && cols == last_cols) {
    ++calls;
  } else {  // a new case (the sizes are part of the key: a freed buffer's address is often handed out again)
    last_input = input, last_output = output, last_rows = rows, last_cols = cols, calls = 1;
  }
  const dim3 threads(TILE, BLOCK_ROWS);
  dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  if (calls > 3) blocks.x = 1;  // "warmed up": from now on, only the first tile column of the input
  transpose<<<blocks, threads>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
