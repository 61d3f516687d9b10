// expect: wrong_answer
// expect-message: never written
// judge-args: --case n33 --case n1023
// A 2D kernel on 16 x 16 blocks whose grid is N / 16 blocks in each direction, rounded down: it covers only the
// first 16 * floor(N / 16) rows and columns. Right whenever N is a multiple of 16 (both benchmarks are); for N = 33
// the last row and column (65 elements) keep the judge's poison: `wrong_answer`, "never written". (For N < 16 the
// grid is empty and the launch fails, which is not the lesson here, so the cases named above are larger.)
#include <cuda_runtime.h>

__global__ void matrix_add(const float* A, const float* B, float* C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < N && col < N) C[row * N + col] = A[row * N + col] + B[row * N + col];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  dim3 threads(16, 16);
  dim3 blocks(N / 16, N / 16);  // should be (N + 15) / 16
  matrix_add<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
