// expect: wrong_answer
// expect-message: elements wrong
// Sums the products in a half accumulator (__hfma), since inputs and output are half anyway. Half keeps 11
// significant bits: once the running sum reaches 256 its rounding step is 1/4, and the errors of 1024 additions add up
// (long_k_4x33x31x1024: about 3% of the elements wrong, by up to 19x-38x the tolerance, simulated); on
// large_sums_2x16x33x64 two products near 61,000 of the same sign pass half's largest value, 65,504, and the sum
// becomes inf although the result is within 40,000. The challenge asks for float accumulation, as the reference does.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void bmm(const half* A, const half* B, half* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const size_t b = blockIdx.z;
  if (row < M && col < N) {
    const half* Ab = A + b * M * K;
    const half* Bb = B + b * K * N;
    half acc = __float2half(0.0f);
    for (int k = 0; k < K; ++k) acc = __hfma(Ab[row * K + k], Bb[k * N + col], acc);
    C[b * M * N + row * N + col] = acc;
  }
}

extern "C" void solve(const half* A, const half* B, half* C, int BATCH, int M, int N, int K) {
  const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16, BATCH);
  bmm<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
