#include <cuda_runtime.h>

#include <stdint.h>

// For every head h: dequantise K[h][j][c] = K_int8[h][j][c] * k_scale[h][j] and V[h][j][c] = V_int8[h][j][c] *
// v_scale[h][j], then output[h] = softmax(Q[h] K[h]^T / sqrt(head_dim)) V[h], the softmax over the seq_len tokens.
// Q and output are [num_heads, head_dim]; K_int8 and V_int8 are [num_heads, seq_len, head_dim]; k_scale and v_scale
// are [num_heads, seq_len]; all row-major.
__global__ void int8_kv_attention_kernel(const float* Q, const int8_t* K_int8, const int8_t* V_int8,
                                         const float* k_scale, const float* v_scale, float* output, int num_heads,
                                         int seq_len, int head_dim) {
  // TODO
}

// Q, K_int8, V_int8, k_scale, v_scale and output point to GPU memory. solve() must leave the finished result in output.
extern "C" void solve(const float* Q, const int8_t* K_int8, const int8_t* V_int8, const float* k_scale,
                      const float* v_scale, float* output, int num_heads, int seq_len, int head_dim) {
  const int threads_per_block = 256;
  const int blocks = num_heads;  // one block per head, for a start
  int8_kv_attention_kernel<<<blocks, threads_per_block>>>(Q, K_int8, V_int8, k_scale, v_scale, output, num_heads,
                                                          seq_len, head_dim);
  cudaDeviceSynchronize();
}
