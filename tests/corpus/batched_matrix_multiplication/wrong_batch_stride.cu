// expect: wrong_answer
// expect-message: elements wrong
// Steps through the batch of B with A's stride: matrix b of B is taken at B + b * M * K instead of B + b * K * N.
// Whenever M != N the two differ and every matrix but the first is multiplied by the wrong numbers (a slice that
// straddles two matrices of B). strides_3x5x7x3 catches it (strides 15 vs 21); the example does not (M = N = 2, so
// M * K = K * N) and neither do square batches, which is why the bug survives a quick test.
#include <cuda_runtime.h>

__global__ void bmm(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const size_t b = blockIdx.z;
  if (row < M && col < N) {
    const float* Ab = A + b * M * K;
    const float* Bb = B + b * M * K;  // should be b * K * N
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += Ab[row * K + k] * Bb[k * N + col];
    C[b * M * N + row * N + col] = acc;
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int BATCH, int M, int N, int K) {
  const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16, BATCH);
  bmm<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
