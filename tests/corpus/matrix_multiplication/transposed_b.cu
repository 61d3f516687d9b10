// expect: wrong_answer
// Reads B as if it were stored column-major.
#include <cuda_runtime.h>
__global__ void mm(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < K) {
    float acc = 0;
    for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[col * N + k];
    C[row * K + col] = acc;
  }
}
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16), grid((K + 15) / 16, (M + 15) / 16);
  mm<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
