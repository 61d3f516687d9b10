// expect: wrong_answer
// expect-message: elements wrong
// Steps through the batch of B with A's stride: matrix b of B is taken at B + b * M * K instead of B + b * K * N.
// Whenever M != N the two differ and every matrix but the first is multiplied by the wrong numbers (a slice that
// straddles two matrices of B, or runs past the end of B). The statement's example catches it (M * K = 4, K * N = 6),
// as does strides_3x5x7x3 (15 vs 21); square batches do not, which is why the bug survives a quick test.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void bmm(const half* A, const half* B, half* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const size_t b = blockIdx.z;
  if (row < M && col < N) {
    const half* Ab = A + b * M * K;
    const half* Bb = B + b * M * K;  // should be b * K * N
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += __half2float(Ab[row * K + k]) * __half2float(Bb[k * N + col]);
    C[b * M * N + row * N + col] = __float2half(acc);
  }
}

extern "C" void solve(const half* A, const half* B, half* C, int BATCH, int M, int N, int K) {
  const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16, BATCH);
  bmm<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
