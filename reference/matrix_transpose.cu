// Reference for challenges/matrix_transpose: output (cols x rows) = input (rows x cols) transposed. Pure data
// movement, so the result is exact; the kernel stages 32x32 tiles through padded shared memory so that both the
// read of input and the write of output are coalesced.
#include <cstdint>

#include "judge/worker/reference.hpp"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "matrix_transpose";
constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // a 32x8 block moves a 32x32 tile in 4 passes

// Grid-stride over tile rows: gridDim.y is capped at 65535, rows are not.
__global__ void transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];  // +1: column reads hit 32 different banks
  const int tile_rows = (rows + kTile - 1) / kTile;
  for (int by = blockIdx.y; by < tile_rows; by += gridDim.y) {  // uniform per block: barriers are safe
    const int x = blockIdx.x * kTile + threadIdx.x;  // input column
    const int y0 = by * kTile;                       // first input row of the tile
    for (int j = threadIdx.y; j < kTile; j += kRowsPerPass) {
      const int y = y0 + j;
      if (x < cols && y < rows) tile[j][threadIdx.x] = in[std::int64_t(y) * cols + x];
    }
    __syncthreads();
    const int ox = y0 + threadIdx.x;  // output column = input row
    const int oy0 = blockIdx.x * kTile;
    for (int j = threadIdx.y; j < kTile; j += kRowsPerPass) {
      const int oy = oy0 + j;  // output row = input column
      if (ox < rows && oy < cols) out[std::int64_t(oy) * rows + ox] = tile[threadIdx.x][j];
    }
    __syncthreads();  // the next tile overwrites shared memory
  }
}

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int rows = a.scalar<int>("rows");
  const int cols = a.scalar<int>("cols");
  if (rows <= 0 || cols <= 0) return;
  const int tile_rows = (rows + kTile - 1) / kTile;
  const dim3 block(kTile, kRowsPerPass);
  const dim3 grid((cols + kTile - 1) / kTile, tile_rows < 65535 ? tile_rows : 65535);
  transpose_kernel<<<grid, block, 0, s>>>(a.input<float>("input"), a.output<float>("output"), rows, cols);
  judge::ref::check_launch(kId, "transpose_kernel");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t rows = a.scalar<int>("rows");
  const std::int64_t cols = a.scalar<int>("cols");
  const float* in = a.input<float>("input");
  double* out = a.output("output");
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
}

}  // namespace

JUDGE_REFERENCE(matrix_transpose, gpu, cpu)
