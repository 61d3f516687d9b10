// expect: wrong_answer
// expect-message: elements wrong
// Reads each nibble as a two's-complement int4 (0x0..0x7 as 0..7, 0x8..0xF as -8..-1) instead of unsigned with an
// offset of 8 (value = nibble - 8). The two agree on no nibble: 0x9 is +1 in the offset code and -7 here, 0x8 is 0
// and -8. The statement's example (0x99 = +1 twice) already fails: y[0][0] comes out -7 instead of 1.
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
  for (int i = 0; i < K / 2; ++i) {
    const int k = 2 * i;
    const unsigned byte = w_row[i];
    const float scale = __half2float(s_row[k / group_size]);
    const int hi = (int)(byte >> 4), lo = (int)(byte & 0xFu);
    acc += __half2float(x_row[k]) * ((float)(hi >= 8 ? hi - 16 : hi) * scale);      // wrong: the code is nibble - 8
    acc += __half2float(x_row[k + 1]) * ((float)(lo >= 8 ? lo - 16 : lo) * scale);
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
