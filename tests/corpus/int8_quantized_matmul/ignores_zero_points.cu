// expect: wrong_answer
// expect-message: elements wrong
// Multiplies the raw int8 values and never uses the zero points: sum A B instead of sum (A - zA)(B - zB), and no
// zero_point_C. Right only where all three are 0; the second example (zero points 1, 3, 5: 11 instead of 6) fails
// first, and zero_points_33x31x37 (60, -45, 60) is wrong almost everywhere.
#include <cuda_runtime.h>

#include <stdint.h>

__global__ void quantized_matmul(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A,
                                 float scale_B, float scale_C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  int acc = 0;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  const float q = fminf(fmaxf(rintf(acc * scale_A * scale_B / scale_C), -128.0f), 127.0f);
  C[row * N + col] = static_cast<int8_t>(q);
}

extern "C" void solve(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  quantized_matmul<<<blocks, threads>>>(A, B, C, M, N, K, scale_A, scale_B, scale_C);
  cudaDeviceSynchronize();
}
