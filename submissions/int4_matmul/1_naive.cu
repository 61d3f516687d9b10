// Rung 1: one thread per output y[m][n]. It walks row n of w_q byte by byte: the high nibble is weight k = 2i, the
// low nibble weight k = 2i + 1, each nibble minus 8 is the signed weight, times the scale of its group along K. The
// products are summed in float and rounded to half once, at the end.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void int4_matmul_naive(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N,
                                  int K, int group_size) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;  // neighbouring threads: neighbouring outputs of one row of y
  const int m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  const __half* x_row = x + (size_t)m * K;
  const uint8_t* w_row = w_q + (size_t)n * (K / 2);
  const __half* s_row = scales + (size_t)n * (K / group_size);
  float acc = 0.0f;
  for (int i = 0; i < K / 2; ++i) {
    const int k = 2 * i;
    const unsigned byte = w_row[i];
    // group_size is even, so weights 2i and 2i + 1 always share a group: one scale per byte.
    const float scale = __half2float(s_row[k / group_size]);
    const float w_hi = (float)((int)(byte >> 4) - 8) * scale;   // exact in float: 4 bits times 11
    const float w_lo = (float)((int)(byte & 0xFu) - 8) * scale;
    acc += __half2float(x_row[k]) * w_hi;
    acc += __half2float(x_row[k + 1]) * w_lo;
  }
  y[(size_t)m * N + n] = __float2half(acc);
}

extern "C" void solve(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N, int K,
                      int group_size) {
  const dim3 threads(32, 8);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  int4_matmul_naive<<<blocks, threads>>>(x, w_q, scales, y, M, N, K, group_size);
  cudaDeviceSynchronize();
}
