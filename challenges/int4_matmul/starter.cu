#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

// y = x W^T. x is M x K and y is M x N, row-major half. W (N x K) is stored packed: byte w_q[n * (K/2) + i] holds
// weight k = 2i in its high nibble (bits 7..4) and k = 2i + 1 in its low nibble; a nibble v stands for v - 8. Weight
// (n, k) is multiplied by scales[n * (K / group_size) + k / group_size]. Sum the products in float, round to half once.
__global__ void int4_matmul_kernel(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N,
                                   int K, int group_size) {
  // TODO
}

// x, w_q, scales, y are device pointers. solve() must leave the finished result in y.
extern "C" void solve(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N, int K,
                      int group_size) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  int4_matmul_kernel<<<blocks, threads>>>(x, w_q, scales, y, M, N, K, group_size);
  cudaDeviceSynchronize();
}
