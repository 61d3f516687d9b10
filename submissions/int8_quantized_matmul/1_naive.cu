// Rung 1: one thread per output. It sums (A[i][k] - zero_point_A) * (B[k][j] - zero_point_B) in an int (exact: each
// term is at most 255 * 255 in magnitude, so |sum| < 2^28 for K <= 4096), scales the sum in float exactly as the
// formula is written, rounds halves to even (rintf, like torch.round), adds zero_point_C and clamps to [-128, 127].
#include <cuda_runtime.h>

#include <stdint.h>

__global__ void quantized_matmul(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A,
                                 float scale_B, float scale_C, int zero_point_A, int zero_point_B,
                                 int zero_point_C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // consecutive threads: consecutive columns of B and C
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  int acc = 0;
  for (int k = 0; k < K; ++k) acc += (A[row * K + k] - zero_point_A) * (B[k * N + col] - zero_point_B);
  const float scaled = acc * scale_A * scale_B / scale_C;
  // rintf(scaled) is a whole number; adding zero_point_C to it in float is exact below 2^24, and anything larger
  // clamps to -128 or 127 anyway. Clamping before the conversion is what keeps the int8 store from wrapping around.
  const float q = fminf(fmaxf(rintf(scaled) + zero_point_C, -128.0f), 127.0f);
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
