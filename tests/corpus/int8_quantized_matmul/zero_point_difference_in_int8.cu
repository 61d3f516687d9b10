// expect: wrong_answer
// expect-message: elements wrong
// Subtracts the zero points but keeps the differences in int8_t: A - zero_point_A ranges over [-255, 255] when the
// zero point is non-zero, and an int8 keeps only the low 8 bits (100 - (-60) = 160 becomes -96). Caught by
// zero_points_33x31x37 (zero points 60 and -45) and extreme_zp_19x23x256 (-128 and 127, where most differences wrap).
#include <cuda_runtime.h>

#include <stdint.h>

__global__ void quantized_matmul(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A,
                                 float scale_B, float scale_C, int zero_point_A, int zero_point_B,
                                 int zero_point_C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  int acc = 0;
  for (int k = 0; k < K; ++k) {
    const int8_t a = A[row * K + k] - zero_point_A;  // wraps
    const int8_t b = B[k * N + col] - zero_point_B;
    acc += a * b;
  }
  const float q = fminf(fmaxf(rintf(acc * scale_A * scale_B / scale_C) + zero_point_C, -128.0f), 127.0f);
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
