#include <cuda_runtime.h>

// C = clamp(round(sum_k (A[i][k] - zero_point_A) * (B[k][j] - zero_point_B) * scale_A * scale_B / scale_C)
//           + zero_point_C, -128, 127). A is M x K, B is K x N, C is M x N, all row-major int8. Sum in int32, scale in
// float, round halves to even (rintf), then add zero_point_C and clamp.
__global__ void quantized_matmul_kernel(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K,
                                        float scale_A, float scale_B, float scale_C, int zero_point_A,
                                        int zero_point_B, int zero_point_C) {
  // TODO
}

// A, B and C point to GPU memory. solve() must leave the finished result in C.
extern "C" void solve(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  quantized_matmul_kernel<<<blocks, threads>>>(A, B, C, M, N, K, scale_A, scale_B, scale_C, zero_point_A,
                                               zero_point_B, zero_point_C);
  cudaDeviceSynchronize();
}
