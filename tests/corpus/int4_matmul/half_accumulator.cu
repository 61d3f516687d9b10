// expect: wrong_answer
// expect-message: elements wrong
// Sums each group's products x * (nibble - 8) in a half accumulator (__hfma), as half2 GEMV kernels often do, then
// scales the group sum in float. Half keeps 11 significant bits: the running sum of a 128-weight group is typically
// 30 to 60 in size, where half's step is 1/64 to 1/32, and 128 roundings of that size add up. Harmless for short
// groups; wrong (simulated) on about 2% of the outputs of llm_128x256x512_g128, by up to 5x the tolerance, 1% of
// rect_255x257x384_g128 and 6% of gemv_1x1025x4096_g128, and on the benchmarks. Sum in float.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void int4_matmul(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N, int K,
                            int group_size) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  const __half* x_row = x + (size_t)m * K;
  const uint8_t* w_row = w_q + (size_t)n * (K / 2);
  const __half* s_row = scales + (size_t)n * (K / group_size);
  float acc = 0.0f;
  for (int g = 0; g < K / group_size; ++g) {
    __half part = __float2half(0.0f);
    for (int k = g * group_size; k < (g + 1) * group_size; k += 2) {
      const unsigned byte = w_row[k / 2];
      part = __hfma(x_row[k], __int2half_rn((int)(byte >> 4) - 8), part);            // wrong: a half accumulator
      part = __hfma(x_row[k + 1], __int2half_rn((int)(byte & 0xFu) - 8), part);
    }
    acc += __half2float(part) * __half2float(s_row[g]);
  }
  y[(size_t)m * N + n] = __float2half(acc);
}

extern "C" void solve(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N, int K,
                      int group_size) {
  const dim3 threads(32, 8);
  const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  int4_matmul<<<blocks, threads>>>(x, w_q, scales, y, M, N, K, group_size);
  cudaDeviceSynchronize();
}
