// expect: wrong_answer
// Saves the scratch buffer by multiplying in place: output = A, then P - 1 times output = output * A, each kernel
// reading the rows of output that other blocks are overwriting. A thread only reads its own row, but the 16 x 16
// blocks of a row run in any order, so a block can read elements its neighbours already replaced by the next power.
// Small matrices (one block, one warp per row) may come out right; the multi-block tests (N = 33, 64, 100, ...) do
// not.
#include <cuda_runtime.h>

__global__ void multiply_in_place(float* R, const float* A, int N) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= N || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += R[row * N + k] * A[k * N + col];
  R[row * N + col] = acc;  // other threads of this row may still be reading R[row][col]
}

extern "C" void solve(const float* input, float* output, int N, int P) {
  cudaMemcpy(output, input, (size_t)N * N * sizeof(float), cudaMemcpyDeviceToDevice);
  const dim3 block(16, 16), grid((N + 15) / 16, (N + 15) / 16);
  for (int p = 2; p <= P; ++p) multiply_in_place<<<grid, block>>>(output, input, N);
  cudaDeviceSynchronize();
}
