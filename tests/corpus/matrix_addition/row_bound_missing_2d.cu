// expect: memory_violation
// expect-message: past the end of C
// A 2D kernel that checks the column against N but not the row. The grid is rounded up to whole 16 x 16 blocks, so
// the threads of the last block row past row N - 1 store beyond the end of C (for N = 1, rows 1 to 15 of the only
// block). Every element inside the matrix is right, but C sits between guard regions, and the changed bytes after it
// are a memory violation.
#include <cuda_runtime.h>

__global__ void matrix_add(const float* A, const float* B, float* C, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < N) C[row * N + col] = A[row * N + col] + B[row * N + col];  // missing: row < N
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  dim3 threads(16, 16);
  dim3 blocks((N + 15) / 16, (N + 15) / 16);
  matrix_add<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
