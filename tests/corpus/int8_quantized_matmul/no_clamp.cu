// expect: wrong_answer
// expect-message: elements wrong
// Rounds and adds zero_point_C but never clamps: the int result is stored straight into an int8, which keeps its low
// 8 bits, so 130 becomes -126 and -131 becomes 125. Caught by every test whose results leave [-128, 127]: on
// zero_points_33x31x37 the few that saturate, on saturate_64x64x64 nearly every element.
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
  const int q = __float2int_rn(acc * scale_A * scale_B / scale_C) + zero_point_C;
  C[row * N + col] = static_cast<int8_t>(q);  // wraps around: the clamp to [-128, 127] is missing
}

extern "C" void solve(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  quantized_matmul<<<blocks, threads>>>(A, B, C, M, N, K, scale_A, scale_B, scale_C, zero_point_A, zero_point_B,
                                        zero_point_C);
  cudaDeviceSynchronize();
}
