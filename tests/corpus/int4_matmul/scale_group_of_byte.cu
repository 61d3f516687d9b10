// expect: wrong_answer
// expect-message: elements wrong
// Takes the scale of byte i from group i / group_size, counting bytes where it should count weights: byte i holds
// weights 2i and 2i + 1, whose group is 2i / group_size. A group spans group_size / 2 bytes, so the kernel reads the
// scale of group g for groups 2g and 2g + 1, and half the weights get their neighbour's scale. Invisible while a row
// has one group (K = group_size) or all scales are equal (the example); two_groups_31x33x32_g16 (K = 2 * group_size)
// and nibbles_2x3x8_g4 catch it.
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
    const float scale = __half2float(s_row[i / group_size]);  // wrong: the group of weight 2i is 2i / group_size
    acc += __half2float(x_row[k]) * ((float)((int)(byte >> 4) - 8) * scale);
    acc += __half2float(x_row[k + 1]) * ((float)((int)(byte & 0xFu) - 8) * scale);
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
