// expect: wrong_answer
// expect-message: exact halves (x.5) rounded away from zero
// Rounds with roundf, which sends halves away from zero (0.5 -> 1, 2.5 -> 3); the definition rounds halves to even
// (torch.round: 0.5 -> 0, 2.5 -> 2). They differ only on exact halves: ties_40x24x8 (combined scale exactly 0.5, so
// every odd sum is a half) is wrong on about a quarter of its elements; tests with power-of-two scales may fail first.
#include <cuda_runtime.h>

#include <stdint.h>

__global__ void quantized_matmul(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A,
                                 float scale_B, float scale_C, int zero_point_A, int zero_point_B,
                                 int zero_point_C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  int acc = 0;
  for (int k = 0; k < K; ++k) acc += (A[row * K + k] - zero_point_A) * (B[k * N + col] - zero_point_B);
  const float q = fminf(fmaxf(roundf(acc * scale_A * scale_B / scale_C) + zero_point_C, -128.0f), 127.0f);
  C[row * N + col] = static_cast<int8_t>(q);
}

extern "C" void solve(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  quantized_matmul<<<blocks, threads>>>(A, B, C, M, N, K, scale_A, scale_B, scale_C, zero_point_A, zero_point_B,
                                        zero_point_C);
  cudaDeviceSynchronize();
}
