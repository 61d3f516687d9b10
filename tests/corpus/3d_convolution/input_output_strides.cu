// expect: wrong_answer
// expect-message: elements wrong
// Indexes the input with the output's strides, input[((z + d) * out_rows + (y + r)) * out_cols + (x + c)], as if
// the two volumes had the same shape. Only kernels one row high and one column wide (planes of equal shape) hide it;
// the statement's example and every other test read the wrong inputs (always inside the input, so the judge sees
// wrong values, not an overrun).
#include <cuda_runtime.h>
__global__ void correlate(const float* input, const float* kernel, float* output, int kd, int kr, int kc,
                          int out_rows, int out_cols) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (x >= out_cols || y >= out_rows) return;
  float acc = 0.0f;
  for (int d = 0; d < kd; ++d)
    for (int r = 0; r < kr; ++r)
      for (int c = 0; c < kc; ++c)
        acc += input[((z + d) * out_rows + (y + r)) * out_cols + (x + c)] * kernel[(d * kr + r) * kc + c];  // wrong
  output[(z * out_rows + y) * out_cols + x] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_depth, int input_rows,
                      int input_cols, int kernel_depth, int kernel_rows, int kernel_cols) {
  const int od = input_depth - kernel_depth + 1, orows = input_rows - kernel_rows + 1,
            ocols = input_cols - kernel_cols + 1;
  const dim3 threads(32, 8), blocks((ocols + 31) / 32, (orows + 7) / 8, od);
  correlate<<<blocks, threads>>>(input, kernel, output, kernel_depth, kernel_rows, kernel_cols, orows, ocols);
  cudaDeviceSynchronize();
}
