// expect: wrong_answer
// expect-message: elements wrong
// Unpacks each byte low nibble first: weight 2i from bits 3..0 and weight 2i + 1 from bits 7..4. The packing is the
// other way round (the high nibble is the even weight), so every pair of weights is exchanged. The statement's
// example cannot tell (each of its bytes holds two equal nibbles); nibbles_2x3x8_g4 can: it gets y[0] = [-7, 3, 8]
// instead of [7, -4, -12], and every random test is wrong almost everywhere.
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
    acc += __half2float(x_row[k]) * ((float)((int)(byte & 0xFu) - 8) * scale);     // wrong: low nibble is k + 1
    acc += __half2float(x_row[k + 1]) * ((float)((int)(byte >> 4) - 8) * scale);
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
