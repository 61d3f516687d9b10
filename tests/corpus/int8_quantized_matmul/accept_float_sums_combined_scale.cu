// expect: accepted
// Two liberties a correct LeetGPU solution may take, both accepted. It sums the products in float, as LeetGPU's own
// reference does (a float32 matmul, then round): exact while every partial sum stays below 2^24 in magnitude, which
// holds on every test (guaranteed up to K = 256 at the extreme zero points; at K = 4096 it would take a 48-sigma
// random walk). And it folds the three scales into one, scale_A * scale_B / scale_C, before multiplying: a different
// float rounding from the reference's, which never changes a rounded result on these tests (statement, Tolerance).
#include <cuda_runtime.h>

#include <stdint.h>

__global__ void quantized_matmul(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale,
                                 int zero_point_A, int zero_point_B, int zero_point_C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += float(A[row * K + k] - zero_point_A) * float(B[k * N + col] - zero_point_B);
  const float q = fminf(fmaxf(rintf(acc * scale) + zero_point_C, -128.0f), 127.0f);
  C[row * N + col] = static_cast<int8_t>(q);
}

extern "C" void solve(const int8_t* A, const int8_t* B, int8_t* C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  quantized_matmul<<<blocks, threads>>>(A, B, C, M, N, K, scale_A * scale_B / scale_C, zero_point_A, zero_point_B,
                                        zero_point_C);
  cudaDeviceSynchronize();
}
